// 10.3.4.1: min/max reduction: expression must be a scalar enumeration, Boolean, Integer or Real
model MinReductionArray
  Real m = min({i, i} for i in 1:3);
end MinReductionArray;
