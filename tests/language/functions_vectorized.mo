// Specification 12.4.6: a function with scalar inputs called with array arguments is applied
// element-wise (all array arguments of one size, scalars shared), its outputs arrays of that
// size. At t = 1 (x = 2): scale({1, x, 3}, 10) = {10, 20, 30}; (a, b) = both({x, 4}) =
// ({3, 5}, {4, 16}).
// run: method=fe step=0.25 stop=1
// expect: y[1] 10
// expect: y[2] 20
// expect: y[3] 30
// expect: a[1] 3
// expect: a[2] 5
// expect: b[2] 16
model FunctionsVectorized
  function scale
    input Real u;
    input Real k;
    output Real y;
  algorithm
    y := k * u;
  end scale;
  function both
    input Real u;
    output Real plus1;
    output Real square;
  algorithm
    plus1 := u + 1;
    square := u * u;
  end both;
  Real x(start = 1, fixed = true);
  Real y[3];
  Real a[2];
  Real b[2];
equation
  der(x) = 1;
  y = scale({1, x, 3}, 10);
  (a, b) = both({x, 4});
end FunctionsVectorized;
