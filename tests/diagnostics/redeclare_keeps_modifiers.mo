model BugRedeclare
  model A
    replaceable Rtc.Electrical.Resistor r(R = 1) constrainedby Rtc.Electrical.OnePort;
  end A;
  A a(redeclare Rtc.Electrical.Conductor r(G = 1));
end BugRedeclare;
