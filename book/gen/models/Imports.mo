model Imports "import forms"
  import Rtc.Electrical.Resistor;          // qualified
  import E = Rtc.Electrical;               // renaming
  import Rtc.Mechanics.Translational.*;    // wildcard
  import Rtc.Constants.{pi, g_n};          // list
  Resistor r1(R = 1);
  E.Capacitor c1(C = 1e-3, v(start = 0, fixed = true));
  E.Ground gnd;
  E.ConstantVoltage src(V = pi);
  Mass mass(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
  Fixed fix;
  Spring spring(c = g_n);
equation
  connect(src.p, r1.p);
  connect(r1.n, c1.p);
  connect(c1.n, gnd.p);
  connect(src.n, gnd.p);
  connect(fix.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
end Imports;
