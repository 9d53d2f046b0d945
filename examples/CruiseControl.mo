// CruiseControl: a car's longitudinal speed under a saturated PI cruise controller, written
// with Modelica functions: the engine's traction force is a table of speed looked up with
// linear interpolation (a bounded while-loop, annotation __rtc(maxIterations)), the throttle
// is clamped to [0, 1], and the rolling resistance is a polynomial evaluated by Horner's
// scheme (a for-loop over the coefficients). The two functions with loops are compiled out of
// line (called from the step; their Jacobians by forward-mode differentiation of their
// bodies), clamp is inlined; the step's work, calls included, is what `rtc analyze` reports.
// Source: a textbook cruise-control plant (Astrom & Murray, Feedback Systems, sec. 3.1, with
// a traction table instead of the torque curve); reference tests/refdata/cruise.py
// (scipy Radau at rtol 1e-10 on an independent Python implementation, cruise.csv).
model CruiseControl "car speed under a saturated PI cruise controller, with table and polynomial functions"
  function interpolate "y(u) from a table [u, y], linear between rows, extrapolated from the end rows"
    input Real table[:, 2];
    input Real u;
    output Real y;
  protected
    Integer i = 1;
    Integer n = size(table, 1);
  algorithm
    while i < n - 1 and u > table[i + 1, 1] loop
      i := i + 1;
    end while;
    y := table[i, 2] + (table[i + 1, 2] - table[i, 2]) * (u - table[i, 1]) / (table[i + 1, 1] - table[i, 1]);
    annotation(__rtc(maxIterations = 6));
  end interpolate;
  function clamp "u limited to [lo, hi]"
    input Real u;
    input Real lo = 0;
    input Real hi = 1;
    output Real y;
  algorithm
    if u > hi then
      y := hi;
    elseif u < lo then
      y := lo;
    else
      y := u;
    end if;
  end clamp;
  function polyval "c[1]*x^(n-1) + ... + c[n] by Horner's scheme"
    input Real c[:];
    input Real x;
    output Real y = 0;
  algorithm
    for k in 1:size(c, 1) loop
      y := y * x + c[k];
    end for;
  end polyval;
  parameter Real m(unit = "kg") = 1200 "vehicle mass";
  parameter Real traction[8, 2] = [0, 4000; 5, 4200; 10, 4300; 15, 4200; 20, 3800; 25, 3200; 30, 2500; 40, 1500]
    "maximum traction force (N) over speed (m/s)";
  parameter Real roll[3] = {0.02, 0.5, 150} "rolling resistance polynomial in v (N)";
  parameter Real cdA(unit = "m2") = 0.7 "drag coefficient times frontal area";
  parameter Real rho(unit = "kg/m3") = 1.2 "air density";
  parameter Real kp = 0.5 "proportional gain (1/(m/s))";
  parameter Real ki = 0.1 "integral gain (1/(m s))";
  parameter Real kaw = 2 "anti-windup gain";
  Real v(start = 15, fixed = true, unit = "m/s") "speed";
  Real xi(start = 0.3, fixed = true) "controller integrator";
  Real vref(unit = "m/s") "speed set point";
  Real uraw "controller output before the limit";
  Real throttle "throttle in [0, 1]";
  Real F(unit = "N") "traction force";
equation
  vref = if time < 10 then 20 else 28;
  uraw = kp * (vref - v) + xi;
  throttle = clamp(uraw);
  der(xi) = ki * (vref - v) - kaw * (uraw - throttle);
  F = throttle * interpolate(traction, v);
  m * der(v) = F - polyval(roll, v) - 0.5 * rho * cdA * v ^ 2;
  annotation(experiment(StartTime = 0, StopTime = 40, Interval = 0.01));
end CruiseControl;
