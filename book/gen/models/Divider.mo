model Divider "a subsystem with its own pins"
  import Rtc.Electrical.*;
  model TwoResistors "two resistors in series between the pins a and b"
    Pin a;
    Pin b;
    Resistor r1(R = 1);
    Resistor r2(R = 3);
  equation
    connect(a, r1.p);
    connect(r1.n, r2.p);
    connect(r2.n, b);
  end TwoResistors;
  TwoResistors t;
  ConstantVoltage src(V = 4);
  Ground gnd;
equation
  connect(src.p, t.a);
  connect(t.b, gnd.p);
  connect(src.n, gnd.p);
end Divider;
