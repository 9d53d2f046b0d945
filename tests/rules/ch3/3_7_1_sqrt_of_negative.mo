// 3.7.1: sqrt(v) is an error for v < 0
model SqrtOfNegative
  constant Real c = sqrt(-1.0);
end SqrtOfNegative;
