// 6.5: plug-compatibility: a connector added by a (non-inherited) redeclaration must not be an expandable connector
expandable connector E
end E;

model MB
  Real x = 1;
end MB;

model MA
  extends MB;
  E bus;
end MA;

model Top
  replaceable MB m;
end Top;

model PlugNewExpandableConnector
  Top t(redeclare MA m);
end PlugNewExpandableConnector;
