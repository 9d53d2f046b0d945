// A ball dropped from 1 m bounces on the floor, losing speed at each impact (coefficient of
// restitution e). The impact is a state event (Cellier & Kofman §10.8): located by one
// interpolation, the step repeated up to it, the velocity re-initialised, the step finished.
// Analytic impact times: t1 = sqrt(2 h0 / g), then t(k+1) = t(k) + 2 e^k g t1 / g.
model BouncingBall "Ball bouncing on the floor (state event with reinit)"
  parameter Real g(unit = "m/s2") = 9.81 "gravity";
  parameter Real e = 0.8 "coefficient of restitution";
  Real h(unit = "m", start = 1, fixed = true) "height above the floor";
  Real v(unit = "m/s", start = 0, fixed = true) "velocity (upwards)";
equation
  der(h) = v;
  der(v) = -g;
  when h <= 0 then
    reinit(v, -e*pre(v));
  end when;
  annotation(experiment(StartTime = 0, StopTime = 4, Interval = 1e-3));
end BouncingBall;
