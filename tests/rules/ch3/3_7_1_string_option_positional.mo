// 3.7.1: String options (minimumLength, leftJustified, significantDigits) cannot be passed positionally
model StringOptionPositional
  parameter Real p = 1.5;
  parameter String s = String(p, 10);
end StringOptionPositional;
