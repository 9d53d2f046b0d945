// 3.6.7: the built-in variable time is only available in models and blocks (not in functions)
function F
  input Real u;
  output Real y;
algorithm
  y := u + time;
end F;
model TimeInFunction
  Real z = F(time);
end TimeInFunction;
