// 10.3: promote(A, n): n must be a constant evaluable during translation
model PromoteNNotConstant
  parameter Integer n = 2;
  Real A[2, 1] = promote({1, 2}, n);
end PromoteNNotConstant;
