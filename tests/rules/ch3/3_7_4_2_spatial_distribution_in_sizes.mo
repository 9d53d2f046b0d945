// 3.7.4.2: spatialDistribution: vectorized in0 and in1 must have the same size
model SpatialDistributionInSizes
  Real x(start = 0);
  Real out0[2], out1[2];
equation
  der(x) = 1;
  (out0, out1) = spatialDistribution({time, time}, {time, time, time}, x, true, initialPoints = {0.0, 1.0}, initialValues = {0.0, 0.0});
end SpatialDistributionInSizes;
