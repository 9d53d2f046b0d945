// 4.7: a simulation model must be balanced (fewer equations than unknowns)
model SimulationModelUnbalanced
  Real x;
  Real y;
equation
  x = 1;
end SimulationModelUnbalanced;
