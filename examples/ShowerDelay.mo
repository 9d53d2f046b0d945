// A shower: a PI controller sets the hot-water fraction of a mixing valve; the temperature
// it measures is the mixer's, 1.2 s earlier, carried down the pipe to the head (a transport
// delay, `delay`). It settles at 38 degC in about 15 s; the dead time limits the gain: with
// k = 0.03 and Ti = 2 the water swings between 20 and 55 degC and never settles.
model ShowerDelay "Shower temperature under PI control through a pipe's transport delay"
  parameter Real Tset = 38 "wanted temperature at the head (degC)";
  parameter Real Tcold = 15 "cold supply (degC)";
  parameter Real Thot = 60 "hot supply (degC)";
  parameter Real tau = 0.5 "valve time constant (s)";
  parameter Real Td = 1.2 "pipe transport delay (s)";
  parameter Real k = 0.02 "proportional gain (1/K)";
  parameter Real Ti = 2.5 "integral time (s)";
  Real valve(start = 0, fixed = true) "hot fraction of the flow";
  Real integral(start = 0, fixed = true) "integral of the error (K·s)";
  Real Tmix "at the valve (degC)";
  Real Thead "at the shower head (degC)";
  Real u "valve command";
equation
  Tmix = Tcold + valve * (Thot - Tcold);
  Thead = delay(Tmix, Td);
  der(integral) = Tset - Thead;
  u = min(1, max(0, k * (Tset - Thead + integral / Ti)));
  tau * der(valve) = u - valve;
  annotation(experiment(StopTime = 40, Interval = 0.01));
end ShowerDelay;
