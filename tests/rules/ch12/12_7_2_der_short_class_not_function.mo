// 12.7.2: a partial-derivative short class definition der(f, x) may only declare a function
function G
  input Real u;
  input Integer n;
  output Real y;
algorithm
  y := u*u*n;
end G;
model DerShortClassNotFunction
  model Gd = der(G, u);
  Real x;
equation
  x = time;
end DerShortClassNotFunction;
