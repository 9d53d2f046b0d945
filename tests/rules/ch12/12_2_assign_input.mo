// 12.2: input formal parameters shall not be assigned in the body of the function
function F
  input Real u;
  output Real y;
algorithm
  u := u + 1;
  y := u;
end F;
model AssignInput
  Real x;
equation
  x = F(time);
end AssignInput;
