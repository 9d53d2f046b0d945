// 4.5.2: a component may not be combined with an extends from a class with non-empty base-prefix
record R
  Real a;
end R;
connector InR = input R;
connector Bad
  extends InR;
  parameter Real y = 2;
end Bad;
model ExtendsBasePrefixPlusComponent
  Bad b(a = 1);
end ExtendsBasePrefixPlusComponent;
