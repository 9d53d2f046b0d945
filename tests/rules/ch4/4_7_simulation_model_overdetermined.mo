// 4.7: a simulation model must be balanced (more equations than unknowns)
model SimulationModelOverdetermined
  Real x;
equation
  x = 1;
  x = 2 * x - 1;
end SimulationModelOverdetermined;
