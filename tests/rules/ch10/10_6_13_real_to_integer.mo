// 10.6.13: there is no implicit conversion from Real to Integer (only Integer to Real)
model RealToInteger
  Integer k = 1.5;
end RealToInteger;
