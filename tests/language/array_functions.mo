// Specification 10.3–10.4: cat, cross, outerProduct, skew, diagonal, symmetric, linspace;
// the matrix constructor over arrays of more than two dimensions (`[A]` is A, elements
// promoted and concatenated along dimensions 1 and 2); `each` on an array of components whose
// element has an open-size array parameter (the value goes to every component, then element
// by element into the parameter). With x = 2 at t = 1:
// cat(1, {1, x}, {3}) = {1, 2, 3}; cross({1, 0, 0}, {0, x, 0}) = {0, 0, 2};
// outerProduct({1, 2}, {x, 1})[2, 1] = 4; skew({1, 2, 3})[1, 2] = -3; diagonal({x, 5})[2, 2]
// = 5; symmetric([1, 2; 3, 4])[2, 1] = 2; linspace(0, x, 5)[4] = 1.5; T[2, 1, 2] = 6;
// cat(2, [1, 2; 3, 4], [5; 6])[2, 3] = 6; tf[2].s = -1 + 1 + 1 + 2 = 3.
// run: method=fe step=0.25 stop=1
// expect: c[3] 3
// expect: c[2] 2
// expect: cr[3] 2
// expect: o[2,1] 4
// expect: sk[1,2] -3
// expect: dg[2,2] 5
// expect: sy[2,1] 2
// expect: ls[4] 1.5
// expect: t3 6
// expect: m[2,3] 6
// expect: tf[2].s 3
model ArrayFunctions
  block TF
    parameter Real b[:] = {1};
    parameter Real a[:] = {1, 1};
    Real s = sum(b) + sum(a);
  end TF;
  constant Integer T[2, 2, 2] = [{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}];
  Real x(start = 1, fixed = true);
  Real c[3] = cat(1, {1, x}, {3});
  Real cr[3] = cross({1, 0, 0}, {0, x, 0});
  Real o[2, 2] = outerProduct({1, 2}, {x, 1});
  Real sk[3, 3] = skew({1, 2, 3});
  Real dg[2, 2] = diagonal({x, 5});
  Real sy[2, 2] = symmetric([1, 2; 3, 4]);
  Real ls[5] = linspace(0, x, 5);
  Real t3 = T[2, 1, 2];
  Real m[2, 3] = cat(2, [1, 2; 3, 4], [5; 6]);
  TF tf[2](each final b = {-1, 1}, each final a = {1, 2});
equation
  der(x) = 1;
end ArrayFunctions;
