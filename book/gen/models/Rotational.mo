model Rotational "inertia on a spring and a damper, driven by a constant torque"
  import Rtc.Mechanics.Rotational.*;
  Fixed fixed;
  Spring spring(c = 100);
  Damper damper(d = 1);
  Inertia inertia(J = 0.1, phi(start = 0, fixed = true), w(start = 0, fixed = true));
  Torque torque;
  Rtc.Blocks.Constant tau(k = 1) "torque command";
  AngleSensor angle;
equation
  connect(fixed.flange, spring.flange_a);
  connect(fixed.flange, damper.flange_a);
  connect(spring.flange_b, inertia.flange_a);
  connect(damper.flange_b, inertia.flange_a);
  connect(torque.flange, inertia.flange_b);
  connect(tau.y, torque.tau);
  connect(angle.flange, inertia.flange_b);
end Rotational;
