// A burst of three state events inside one step: at every rising pass of a 10 Hz oscillator
// through 0.5 the three thresholds are 1.8 µs apart, so a 1 ms step crosses all three. The
// earliest is located and handled, the other two are applied at the end of the step and
// counted as deferred; none is lost (n1 = n2 = n3 afterwards; tests/realtime.rs).
model EventBurst
  parameter Real w = 2*3.141592653589793*10 "angular frequency";
  Real y(start = 0, fixed = true);
  Real z(start = 1, fixed = true);
  discrete Real n1(start = 0);
  discrete Real n2(start = 0);
  discrete Real n3(start = 0);
equation
  der(y) = w*z;
  der(z) = -w*y;
  when y > 0.5 then
    n1 = pre(n1) + 1;
  end when;
  when y > 0.5001 then
    n2 = pre(n2) + 1;
  end when;
  when y > 0.5002 then
    n3 = pre(n3) + 1;
  end when;
end EventBurst;
