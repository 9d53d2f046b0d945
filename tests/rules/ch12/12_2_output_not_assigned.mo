// 12.2: outputs of a called function must be assigned (binding, algorithm, external body or partial derivative)
function F
  input Real u;
  output Real y;

end F;
model OutputNotAssigned
  Real x;
equation
  x = F(time);
end OutputNotAssigned;
