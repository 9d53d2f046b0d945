// A when-equation with a vector of conditions (specification 8.3.5.1: the body runs once when
// any element becomes true), and an array indexed by a discrete Integer that changes at those
// events (10.5: an index known only at run time selects among the elements).
// run: method=be step=0.125 stop=1
// expect: n 2
// expect: k 3
// expect: sel 30
model WhenVectorAndRunTimeIndex
  parameter Real table[3] = {10, 20, 30};
  Real x(start = 0, fixed = true);
  Integer n(start = 0);
  Integer k;
  Real sel;
equation
  der(x) = 1;
  when {x > 0.3, x > 0.6} then
    n = pre(n) + 1;
  end when;
  k = 1 + n;
  sel = table[k];
end WhenVectorAndRunTimeIndex;
