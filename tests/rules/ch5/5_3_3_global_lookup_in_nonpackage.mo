// 5.3.3: global lookup .A.B into a non-package class only finds encapsulated elements
model Holder
  Real x = 1;
  constant Real k = 2;
end Holder;

model GlobalLookupInNonpackage
  Real y = .Holder.k;
end GlobalLookupInNonpackage;
