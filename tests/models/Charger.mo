// Constant current, then constant voltage: the relation v >= Vend holds at its threshold
// (v = Vend) for the whole second phase.
model Charger
  parameter Real C = 1;
  parameter Real R = 0.1;
  parameter Real I = 1;
  parameter Real Vend = 4.2;
  Real vc(start = 4.0, fixed = true);
  Real v;
  Real i;
  Boolean CV(start = false, fixed = true);
equation
  C*der(vc) = -i;
  v = vc - R*i;
  CV = v >= Vend;
  if CV then
    v = Vend;
  else
    i = -I;
  end if;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end Charger;
