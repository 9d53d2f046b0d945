// 4.1: a protected element shall not be accessed via dot notation (a.P)
model B
  Real y = 1;
protected
  Real x = 2;
end B;
model ProtectedComponentDotAccess
  B b;
  Real z = b.x;
end ProtectedComponentDotAccess;
