// 8.6: fixed = false is not allowed on a constant
model ConstantFixedFalse
  constant Real c(fixed = false) = 1;
  Real x = c;
end ConstantFixedFalse;
