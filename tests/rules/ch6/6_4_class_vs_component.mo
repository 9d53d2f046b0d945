// 6.4: compatibility: A is a class iff B is a class (a class cannot be redeclared as a component)
model MB
  Real x = 1;
end MB;

model Top
  replaceable model M = MB;
  Real t = 1;
end Top;

model ClassVsComponent
  extends Top(redeclare MB M);
end ClassVsComponent;
