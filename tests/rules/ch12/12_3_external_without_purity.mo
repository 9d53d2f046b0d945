// 12.3: external functions must be explicitly declared pure or impure (diagnostic required when called)
function F
  input Real u;
  output Real y;
external "C" y = sin(u);
end F;
model ExternalWithoutPurity
  Real x;
equation
  x = F(time);
end ExternalWithoutPurity;
