// 9.3: a connector component shall not be declared parameter or constant
connector RI = input Real;
connector RO = output Real;
block Src
  RO y;
equation
  y = time;
end Src;
block Gain
  RI u;
  RO y;
equation
  y = 2*u;
end Gain;
model ParameterConnectorComponent
  parameter RI k = 1;
  Gain g;
equation
  g.u = k;
end ParameterConnectorComponent;
