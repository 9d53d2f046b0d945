// 12.2: a function cannot contain calls to state-machine operators (e.g. timeInState)
function F
  input Real u;
  output Real y;
algorithm
  y := timeInState();
end F;
model TimeinstateInFunction
  Real x;
equation
  x = F(time);
end TimeinstateInFunction;
