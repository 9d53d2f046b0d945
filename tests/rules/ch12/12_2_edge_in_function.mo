// 12.2: a function cannot contain calls to edge
function F
  input Boolean b;
  output Real y;
algorithm
  y := if edge(b) then 1 else 0;
end F;
model EdgeInFunction
  Real x;
equation
  x = F(time > 0.5);
end EdgeInFunction;
