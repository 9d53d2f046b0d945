// Specification 3.7.4.3: semiLinear(x, a, b) is a·x for x >= 0 and b·x otherwise, element-wise
// over arrays, continuous at x = 0 (no event). At t = 1: x = 0.5 gives 2·0.5 = 1, and
// -x = -0.5 gives 3·(-0.5) = -1.5; the array form gives 4·0.5 and 5·(-0.5).
// run: method=be step=0.25 stop=1
// expect: y 1
// expect: z -1.5
// expect: w[1] 2
// expect: w[2] -2.5
model SemiLinear
  Real x = time - 0.5;
  Real y = semiLinear(x, 2, 3);
  Real z = semiLinear(-x, 2, 3);
  Real w[2] = semiLinear({x, -x}, {4, 4}, 5);
end SemiLinear;
