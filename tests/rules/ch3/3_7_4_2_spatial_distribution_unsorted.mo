// 3.7.4.2: spatialDistribution: initialPoints must be sorted in non-descending order
model SpatialDistributionUnsorted
  Real x(start = 0);
  Real out0, out1;
equation
  der(x) = 1;
  (out0, out1) = spatialDistribution(time, time, x, true, initialPoints = {1.0, 0.0}, initialValues = {0.0, 0.0});
end SpatialDistributionUnsorted;
