// 3.7.1: String: significantDigits is only allowed for a Real first argument (no coercion)
model StringSignificantDigitsInteger
  parameter String s = String(1, significantDigits = 3);
end StringSignificantDigitsInteger;
