// 12.2: a function may not contain components of type Clock
function F
  input Real u;
  output Real y;
protected
  Clock c;
algorithm
  y := u;
end F;
model ClockComponentInFunction
  Real x;
equation
  x = F(time);
end ClockComponentInFunction;
