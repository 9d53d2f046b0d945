// 5.3.2: the class looked inside by a composite name shall not be partial (simulation model)
partial package P
  constant Real k = 1;
end P;

model LookupInPartialPackage
  Real y = P.k;
end LookupInPartialPackage;
