// Specification 3.7.4.2: initial() is true during initialisation and false afterwards. The
// MSL's Limiter writes `if initial() and not limitsAtInit then y = u; else y = limit(u);`:
// at the start time y follows u unlimited, in every step it is limited. With forward Euler
// the first step integrates the derivative of the initialisation (y = u = 2), every later step
// the limited one (y = 1): x(1) = 2·h + (1 − h)·1 = 1 + h = 1.25 at h = 0.25.
// run: method=fe step=0.25 stop=1
// expect: x 1.25
// expect: y 1
// expect: started 1
model InitialInEquations
  parameter Real uMax = 1;
  parameter Boolean limitsAtInit = false;
  Real u = 2 + time;
  Real y;
  Real x(start = 0, fixed = true);
  Real started "0 during initialisation, 1 after";
equation
  if initial() and not limitsAtInit then
    y = u;
  else
    y = min(u, uMax);
  end if;
  started = if initial() then 0 else 1;
  der(x) = y;
end InitialInEquations;
