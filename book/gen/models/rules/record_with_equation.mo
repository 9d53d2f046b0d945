record Gains
  Real k;
  Real k2;
equation
  k2 = 2 * k;
end Gains;

model Amplifier
  parameter Gains g(k = 3);
  Real u = sin(time);
  Real y = g.k * u;
end Amplifier;
