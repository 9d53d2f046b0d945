// The forms of a when-equation's equations (specification 8.3.5, 8.3.5.3): a left-hand side
// that is a component reference with parameter subscripts, a relation as the condition. The
// valid twin of the rules that refuse `2*x = 1`, a subscript that is a discrete variable, a
// call equation `f(x)` and a condition under noEvent; and `pre` of an element chosen by a
// parameter (3.7.5), whose twin refuses a discrete subscript.
// run: method=fe step=0.25 stop=1
// expect: x[1] 1
// expect: x[2] 2
// expect: y 1
model WhenEquationForms
  parameter Integer k = 1;
  discrete Real x[2](each start = 0, each fixed = true);
  Real y;
equation
  y = pre(x[k]);
  when time > 0.5 then
    x[k] = 1;
    x[3 - k] = 2;
  end when;
end WhenEquationForms;
