// 4.4.4: a constant used in the simulation model shall have a declaration equation
model ConstantWithoutBinding
  constant Real c;
  Real x = c;
end ConstantWithoutBinding;
