// 10.3.4.1: product reduction: expression must be a scalar Integer or Real
model ProductReductionArray
  Real p = product({i, i} for i in 1:3);
end ProductReductionArray;
