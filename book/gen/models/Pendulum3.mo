model Pendulum3 "A pendulum in Cartesian coordinates: position on a circle (index 3)"
  parameter Real L = 1 "Length";
  parameter Real m = 1 "Mass";
  parameter Real g = 9.81 "Gravity";
  Real x(start = 0.5, fixed = true) "Horizontal position";
  Real y(start = -0.8660254037844386) "Vertical position (from the constraint)";
  Real vx(start = 0, fixed = true) "Horizontal velocity";
  Real vy(start = 0) "Vertical velocity";
  Real F "Rod force";
equation
  der(x) = vx;
  der(y) = vy;
  m*der(vx) = -F*x/L;
  m*der(vy) = -F*y/L - m*g;
  x^2 + y^2 = L^2;
end Pendulum3;
