// 5.3.2: composite lookup A.B inside a non-package class only finds encapsulated elements
model Holder
  Real x = 1;
  constant Real k = 2;
end Holder;

model LookupInNonpackage
  Real y = Holder.k;
end LookupInNonpackage;
