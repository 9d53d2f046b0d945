// Index reduction (Pantelides) through variables that equations give from parameters alone: a
// motion profile's duration `Ta` and its flag `short` are variables computed once from the
// parameters, the profile s(t) an if-equation in time, and sd = der(s), sdd = der(sd) ask for
// its first and second derivatives. Ta and short are constant between events (derivative
// zero), so the differentiation does not pass through their equations; the discrete flag on
// that path made the model structurally singular before. At t = 1: Ta = 0.5,
// s = amax/2·Ta² + amax·Ta·(1 − Ta) = 1.5, sd = amax·Ta = 2, sdd = 0.
// run: method=be step=0.125 stop=1
// expect: s 1.5
// expect: sd 2
// expect: sdd 0
model IndexPiecewiseConstant
  parameter Real dist = 1;
  parameter Real amax = 4;
  Real Ta;
  Boolean short;
  Real s;
  Real sd;
  Real sdd;
equation
  Ta = sqrt(dist/amax);
  short = Ta < 0.75;
  if short then
    if time < Ta then
      s = amax/2*time^2;
    else
      s = amax/2*Ta^2 + amax*Ta*(time - Ta);
    end if;
  else
    s = 0;
  end if;
  sd = der(s);
  sdd = der(sd);
end IndexPiecewiseConstant;
