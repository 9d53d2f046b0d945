// 12.7.2: in der(f, x) the name f must refer to a function
record R
  Real u;
end R;
function G
  input Real u;
  input Integer n;
  output Real y;
algorithm
  y := u*u*n;
end G;
function Gd = der(R, u);
model DerOfNonFunction
  Real x;
equation
  x = Gd(time, 2);
end DerOfNonFunction;
