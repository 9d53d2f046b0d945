// 4.4.4: the declaration equation of a constant shall be a constant expression
model ConstantNonconstantBinding
  parameter Real p = 1;
  constant Real c = p;
  Real x = c;
end ConstantNonconstantBinding;
