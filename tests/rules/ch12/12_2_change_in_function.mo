// 12.2: a function cannot contain calls to change
function F
  input Boolean b;
  output Real y;
algorithm
  y := if change(b) then 1 else 0;
end F;
model ChangeInFunction
  Real x;
equation
  x = F(time > 0.5);
end ChangeInFunction;
