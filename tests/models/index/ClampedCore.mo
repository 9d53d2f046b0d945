model ClampedCore
  "A coil on a core whose magnetisation follows the field clamped at saturation"
  parameter Real V = 300 "voltage amplitude";
  parameter Real R = 1 "winding resistance";
  parameter Real N = 10 "turns";
  parameter Real l = 1 "magnetic path length";
  parameter Real A = 1 "core area";
  parameter Real mu = 0.1 "slope beyond saturation";
  parameter Real M = 1 "magnetisation at saturation";
  parameter Real Hsat = 1 "field at saturation";
  parameter Real Hc = 0.2 "shift of the magnetisation curve";
  Real i(start = 0, fixed = true) "winding current";
  Real H "field";
  Real Hl "field clamped at saturation";
  Real H2 "shifted clamped field";
  Real P "magnetisation";
  Real B(start = 0, fixed = true) "flux density";
  Real v "induced voltage";
equation
  V*sin(6.283185307179586*time) - R*i = v;
  v = N*A*der(B);
  H = N*i/l;
  Hl = if H > Hsat then Hsat else if H < -Hsat then -Hsat else H;
  H2 = Hl - Hc;
  P = M*tanh(H2);
  der(B) = mu*der(H) + der(P);
  annotation(experiment(StopTime = 1, Interval = 0.001));
end ClampedCore;
