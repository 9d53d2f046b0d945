// 12.9.2: an array cannot be the return value of an external function
pure function F
  input Real u;
  output Real y[2];
external "C" y = e(u);
end F;
model ExternalArrayReturn
  Real x[2];
equation
  x = F(time);
end ExternalArrayReturn;
