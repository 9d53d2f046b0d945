// 12.2: a function may only contain components of type, record, operator record and function classes
model Sub
  Real v;
end Sub;
function F
  input Real u;
  output Real y;
protected
  Sub s;
algorithm
  s.v := u;
  y := s.v;
end F;
model ModelComponentInFunction
  Real x;
equation
  x = F(time);
end ModelComponentInFunction;
