// 5.3.3: the class looked inside by a global name .A.B shall not be partial
partial package P
  constant Real k = 1;
end P;

model GlobalLookupInPartial
  Real y = .P.k;
end GlobalLookupInPartial;
