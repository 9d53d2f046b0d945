// 6.5: plug-compatibility: a connector added by a (non-inherited) redeclaration must not be an input
connector RIn = input Real;
connector ROut = output Real;

model MB
  Real x = 1;
end MB;

model MA
  extends MB;
  RIn u = 2;
end MA;

model Top
  replaceable MB m;
end Top;

model PlugNewInputConnector
  Top t(redeclare MA m);
end PlugNewInputConnector;
