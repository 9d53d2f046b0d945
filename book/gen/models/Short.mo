model Short "short class definitions"
  type Temperature = Real(unit = "K", nominal = 300) "a temperature";
  type Vec3 = Real[3];
  model R10 = Rtc.Electrical.Resistor(R = 10);
  Temperature T(start = 300, fixed = true);
  Vec3 v;
  R10 r;
  Rtc.Electrical.Ground g;
equation
  der(T) = -(T - 290);
  v = {1, 2, 3}*T;
  connect(r.p, g.p);
  connect(r.n, g.p);
end Short;
