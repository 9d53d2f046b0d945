// 12.2: a function can have at most one algorithm section
function F
  input Real u;
  output Real y;
algorithm
  y := u;
algorithm
  y := y + 1;
end F;
model TwoAlgorithmSections
  Real x;
equation
  x = F(time);
end TwoAlgorithmSections;
