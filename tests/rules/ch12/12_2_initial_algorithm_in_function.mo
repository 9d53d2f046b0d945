// 12.2: a function shall not have initial algorithms
function F
  input Real u;
  output Real y;
initial algorithm
  y := u;
end F;
model InitialAlgorithmInFunction
  Real x;
equation
  x = F(time);
end InitialAlgorithmInFunction;
