// 12.9.2: in an explicit external call of equation form, the left-hand side must be an output
pure function F
  input Real u;
  output Real y;
external "C" u = e(y);
end F;
model ExternalLhsNotOutput
  Real x;
equation
  x = F(time);
end ExternalLhsNotOutput;
