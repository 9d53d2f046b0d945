// A burst of six state events inside one step: at every rising pass of a 10 Hz oscillator
// through 0.5 the six thresholds (0.5 to 0.525, 0.005 apart) are crossed within 0.5 ms, so the
// 1 ms step from 8 ms to 9 ms (y from 0.48 to 0.54) crosses all six. The four
// earliest are located and handled one after the other (rtc locates at most four events per
// step), the other two are applied at the end of the step and counted as deferred; none is
// lost (n1 = … = n6 afterwards; tests/realtime.rs).
model EventBurst
  parameter Real w = 2*3.141592653589793*10 "angular frequency";
  Real y(start = 0, fixed = true);
  Real z(start = 1, fixed = true);
  discrete Real n1(start = 0);
  discrete Real n2(start = 0);
  discrete Real n3(start = 0);
  discrete Real n4(start = 0);
  discrete Real n5(start = 0);
  discrete Real n6(start = 0);
equation
  der(y) = w*z;
  der(z) = -w*y;
  when y > 0.5 then
    n1 = pre(n1) + 1;
  end when;
  when y > 0.505 then
    n2 = pre(n2) + 1;
  end when;
  when y > 0.51 then
    n3 = pre(n3) + 1;
  end when;
  when y > 0.515 then
    n4 = pre(n4) + 1;
  end when;
  when y > 0.52 then
    n5 = pre(n5) + 1;
  end when;
  when y > 0.525 then
    n6 = pre(n6) + 1;
  end when;
end EventBurst;
