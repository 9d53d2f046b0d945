// The mean of a fast signal by an integrator, der(x) = u (as the MSL's Mean blocks): x has
// no mode for the characteristic-root check to judge, so the step must come from the run.
// ∫₀³ sin²(20 t) dt = 1.5 − sin(120)/80. Tolerance 1e-4 asks for 1 % (10⁴ × 1e-4 within
// [0.1 %, 1 %]), not 10 %.
model SwitchedMean
  Real u = sin(20*time)^2;
  Real x(start = 0, fixed = true);
equation
  der(x) = u;
  annotation(experiment(StopTime = 3, Interval = 0.1, Tolerance = 1e-4));
end SwitchedMean;
