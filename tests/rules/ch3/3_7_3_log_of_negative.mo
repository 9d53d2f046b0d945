// 3.7.3: elementary function arguments must be in domain (tan not at pi/2+k*pi, asin/acos in [-1,1], log/log10 > 0)
model LogOfNegative
  constant Real c = log(-1.0);
end LogOfNegative;
