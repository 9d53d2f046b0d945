// 6.5: plug-compatibility: a parameter/constant/non-connector input added by a redeclaration must have a binding
model MB
  Real x = 1;
end MB;

model MA
  extends MB;
  parameter Real p;
  Real y = p;
end MA;

model Top
  replaceable MB m;
end Top;

model PlugNewParameterUnbound
  Top t(redeclare MA m);
end PlugNewParameterUnbound;
