// 12.7.2: the variables of a partial derivative der(f, x) must be Real inputs of f
function G
  input Real u;
  input Integer n;
  output Real y;
algorithm
  y := u*u*n;
end G;
function Gd = der(G, n);
model DerWrtNonReal
  Real x;
equation
  x = Gd(time, 2);
end DerWrtNonReal;
