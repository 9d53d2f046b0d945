// 12.2: a function cannot contain calls to terminal
function F
  input Real u;
  output Real y;
algorithm
  y := if terminal() then 1 else u;
end F;
model TerminalInFunction
  Real x;
equation
  x = F(time);
end TerminalInFunction;
