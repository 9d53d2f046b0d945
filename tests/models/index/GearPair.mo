model GearPair "Two inertias joined by an ideal gear, driven by a sine torque (index 2)"
  import Rtc.Mechanics.Rotational.*;
  parameter Real T0 = 2 "Torque amplitude";
  parameter Real w = 2 "Torque angular frequency";
  Inertia inertia1(J = 0.5, phi(start = 0, fixed = true), w(start = 0, fixed = true));
  IdealGear gear(ratio = 3);
  Inertia inertia2(J = 1.8);
  Torque torque;
equation
  torque.tau = T0*sin(w*time);
  connect(torque.flange, inertia1.flange_a);
  connect(inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, inertia2.flange_a);
end GearPair;
