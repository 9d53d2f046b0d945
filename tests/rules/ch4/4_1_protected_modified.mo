// 4.1: a protected element shall not be modified in a component modifier
model B
  Real y = x;
protected
  parameter Real x = 1;
end B;
model ProtectedModified
  B b(x = 2);
end ProtectedModified;
