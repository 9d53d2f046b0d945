// 5.4: the inner component shall be a subtype of the corresponding outer component
model A
  outer parameter Integer n;
  Real y = n;
end A;

model InnerNotSubtype
  inner parameter Real n = 1;
  A a;
end InnerNotSubtype;
