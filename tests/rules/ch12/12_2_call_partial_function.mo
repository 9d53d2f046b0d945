// 12.2: a function called in a simulation model shall not be partial
partial function F
  input Real u;
  output Real y;
algorithm
  y := u;
end F;
model CallPartialFunction
  Real x;
equation
  x = F(time);
end CallPartialFunction;
