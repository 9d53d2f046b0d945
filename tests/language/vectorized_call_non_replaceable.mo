// Specification 12.4.6: a function of scalar inputs called with arrays is applied element by
// element — when the function class is transitively non-replaceable. Here G, declared plainly
// in a package, is called on a vector; the replaceable H (= G) is called on scalars only.
// (The invalid case is tests/rules/ch12/12_4_6_vectorize_replaceable_function.mo.)
// At t = 1: x = {2 t, 2 * 3 t} = {2, 6}, y = 2 t = 2.
// run: method=be step=0.5 stop=1
// expect: x[1] 2
// expect: x[2] 6
// expect: y 2
model Top
  package Fns
    function G
      input Real u;
      output Real y;
    algorithm
      y := 2 * u;
    end G;
  end Fns;
  replaceable function H = Fns.G;
  Real x[2];
  Real y;
equation
  x = Fns.G({time, 3 * time});
  y = H(time);
end Top;
