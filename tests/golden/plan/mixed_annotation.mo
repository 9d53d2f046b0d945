// args: --method mixed --step 0.001
// Mixed mode with the implicit state chosen by an annotation on its declaration.
model MixedAnnotation
  parameter Real k = 1e4;
  Real x(start = 1, fixed = true);
  Real y(start = 0, fixed = true) annotation(__rtc(implicit = true));
equation
  der(x) = -x + y;
  der(y) = k*(x - y);
end MixedAnnotation;
