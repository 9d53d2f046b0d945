// 6.3: references to elements of a replaceable element are limited to its constraining interface
model MB
  Real x = 1;
end MB;

model MA
  extends MB;
  Real y = 2;
end MA;

model ConstrainingInterfaceAccess
  replaceable MA m constrainedby MB;
  Real z = m.y;
end ConstrainingInterfaceAccess;
