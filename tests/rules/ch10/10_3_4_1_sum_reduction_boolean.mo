// 10.3.4.1: sum reduction: expression must be Integer or Real
model SumReductionBoolean
  Integer s = sum(i > 1 for i in 1:3);
end SumReductionBoolean;
