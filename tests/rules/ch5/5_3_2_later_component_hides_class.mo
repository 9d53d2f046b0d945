// 5.3.2: a component declared anywhere in the class hides a same-named class used as a type (Y a; Real Y;)
model Y
  Real x = 1;
end Y;

model LaterComponentHidesClass
  Y a;
  Real Y = 2;
end LaterComponentHidesClass;
