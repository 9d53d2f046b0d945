// Specification 18.2.2.2: a Curve's x and y are result references of the model: time, a
// scalar variable (an element of an array, a parameter) or der of one. (The invalid cases
// are tests/rules/ch18/18_2_2_2_curve_unknown_variable.mo and 18_2_2_2_curve_not_scalar.mo.)
// der(x) = k from 0 with backward Euler: x = 2 t exactly; at t = 1 x = 2, v[2] = 4.
// run: method=be step=0.5 stop=1
// expect: x 2
// expect: v[2] 4
model Top
  parameter Real k = 2;
  Real x(start = 0, fixed = true);
  Real v[2] = {x, 2 * x};
equation
  der(x) = k;
  annotation(Documentation(figures = {
    Figure(title = "Ramp", identifier = "ramp", plots = {
      Plot(curves = {Curve(x = time, y = x), Curve(y = der(x)), Curve(y = v[2])}),
      Plot(curves = {Curve(y = k)})})}));
end Top;
