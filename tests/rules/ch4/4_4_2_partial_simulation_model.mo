// 4.4.2: it is an error if the simulation model itself is partial
partial model PartialSimulationModel
  Real x = 1;
end PartialSimulationModel;
