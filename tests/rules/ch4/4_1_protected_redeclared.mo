// 4.1: a protected element shall not be redeclared in a component modifier
model B
  Real y = x;
protected
  replaceable parameter Real x = 1;
end B;
model ProtectedRedeclared
  B b(redeclare parameter Real x = 2);
end ProtectedRedeclared;
