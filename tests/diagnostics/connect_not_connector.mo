model ConnectNotConnector
  Rtc.Electrical.Resistor r1(R = 1);
  Rtc.Electrical.Resistor r2(R = 1);
equation
  connect(r1, r2);
end ConnectNotConnector;
