model ZeroSeriesResistance "a capacitor behind a series resistance that is zero"
  // With Rs = 0 the first equation says v = vin and no longer determines i: the capacitor's
  // voltage is constrained (index 2), i = C*der(vin). Left in, the term i*Rs would let
  // matching take the equation for i, and the Jacobian would be singular.
  parameter Real Rs = 0 "series resistance: none";
  parameter Real C = 1e-3 "capacitance";
  Real vin = sin(10*time) "source voltage";
  Real v(start = 0) "capacitor voltage (internal node)";
  Real i "current";
equation
  i*Rs = vin - v;
  C*der(v) = i;
  annotation(experiment(StopTime = 1));
end ZeroSeriesResistance;
