// 10.3: promote(A, n) requires n >= ndims(A)
model PromoteTooFewDims
  Real A[2] = promote({1, 2}, 0);
end PromoteTooFewDims;
