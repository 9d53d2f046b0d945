// 3.7.4.2: spatialDistribution: initialPoints and initialValues must have equal size
model SpatialDistributionUnequalSizes
  Real x(start = 0);
  Real out0, out1;
equation
  der(x) = 1;
  (out0, out1) = spatialDistribution(time, time, x, true, initialPoints = {0.0, 1.0}, initialValues = {0.0, 0.0, 0.0});
end SpatialDistributionUnequalSizes;
