// 12.9: the external language must be "builtin", "C", "C..." or "FORTRAN 77"
pure function F
  input Real u;
  output Real y;
external "Java" y = e(u);
end F;
model ExternalLanguageUnknown
  Real x;
equation
  x = F(time);
end ExternalLanguageUnknown;
