// 4.6: a type may only be a predefined type, enumeration, array of type or extend from a type (no own components)
type T
  Real y;
end T;
model TypeWithComponent
  T t(y = 1);
end TypeWithComponent;
