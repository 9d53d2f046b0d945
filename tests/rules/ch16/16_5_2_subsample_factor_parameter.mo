// 16.5.2: the factor of subSample must be a parameter expression
model SubsampleFactorParameter
  Real u(start = 0);
  Real y;
equation
  u = sample(time, Clock(0.1));
  y = subSample(u, factor = 3 * u);
end SubsampleFactorParameter;
