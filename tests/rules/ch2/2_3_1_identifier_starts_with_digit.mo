// 2.3.1: an unquoted identifier must start with a letter or underscore
model IdentifierStartsWithDigit
  Real 1x = 1;
end IdentifierStartsWithDigit;
