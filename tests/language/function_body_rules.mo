// What a function body may hold, and what an algorithm may do (specification 3.7.1, 11.2.2,
// 11.2.8.2, 12.2): a component of a type in a function, a for-loop that reads its variable,
// String() of a scalar, terminate in a model's when-statement. The valid twins of the rules
// that refuse a model component in a function, an assigned loop variable, String() of an
// array and terminate in a function.
// run: method=fe step=0.25 stop=1
// expect: y 6
// expect: x 1
function F
  input Real u;
  output Real y;
protected
  Real v;
algorithm
  v := u;
  y := 0;
  for i in 1:3 loop
    y := y + i * v;
  end for;
end F;
model FunctionBodyRules
  Real y = F(1);
  parameter String s = String(2);
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
algorithm
  when time > 2 then
    terminate("done");
  end when;
end FunctionBodyRules;
