// 2.4.1: a floating point exponent (e/E, optional sign) must be followed by at least one digit
model ExponentWithoutDigits
  Real x = 2.5E;
end ExponentWithoutDigits;
