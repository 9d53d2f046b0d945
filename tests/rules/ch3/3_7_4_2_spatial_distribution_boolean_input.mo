// 3.7.4.2: spatialDistribution: in0, in1, x Real; positiveVelocity Boolean; initialPoints/initialValues Real arrays
model SpatialDistributionBooleanInput
  Real x(start = 0);
  Real out0, out1;
  Boolean b = time > 0.5;
equation
  der(x) = 1;
  (out0, out1) = spatialDistribution(b, time, x, true, initialPoints = {0.0, 1.0}, initialValues = {0.0, 0.0});
end SpatialDistributionBooleanInput;
