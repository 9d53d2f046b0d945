// Specification 8.6 and 11.1: an initial algorithm computes parameters with `fixed = false`
// (the MSL's DCPowerSupply: the voltage and current limits and whether the power limit
// applies). From parameters only, the results are their bindings, so `if cp then` selects its
// branch like any parameter condition. V0 = 12, I0 = 2, P0 = 20: vLim·iLim = 24 > 20, so
// cp = true and vLim = P0/I0 = 10; y = vLim + (if cp then 1 else 0) = 11.
// run: method=be step=0.5 stop=1
// expect: y 11
model ParametersFromInitialAlgorithm
  parameter Real V0 = 12;
  parameter Real I0 = 2;
  parameter Real P0 = 20;
  parameter Real vLim(fixed = false);
  parameter Real iLim(fixed = false);
  parameter Boolean cp(fixed = false);
  Real y;
initial algorithm
  vLim := V0;
  iLim := I0;
  cp := false;
  if vLim * iLim > P0 then
    cp := true;
    vLim := P0 / I0;
  end if;
equation
  if cp then
    y = vLim + 1;
  else
    y = vLim;
  end if;
end ParametersFromInitialAlgorithm;
