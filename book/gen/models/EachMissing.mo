model EachMissing
  Rtc.Electrical.Resistor r[3](R = 5);
  Rtc.Electrical.Ground g;
equation
  for k in 1:3 loop
    connect(r[k].p, g.p);
    connect(r[k].n, g.p);
  end for;
end EachMissing;
