// 7.1.3: a type may only extend a type or a class
record R
  Real v;
end R;

type T
  extends R;
end T;

model TypeExtendsRecord
  T t(v = 1);
end TypeExtendsRecord;
