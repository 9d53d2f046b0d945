// 7.2.3: a value for a part of a non-simple component may not override the value of the whole component
record R
  parameter Real x;
  parameter Real y;
end R;

model B
  parameter R a = R(2, 3);
end B;

model PartOverridesRecordValue
  B b1(a(x = 4));
end PartOverridesRecordValue;
