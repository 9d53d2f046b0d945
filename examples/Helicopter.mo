// Helicopter: longitudinal motion of a helicopter near hover, stabilised by output feedback
// through a full-order observer.
// Source: F.E. Cellier, E. Kofman, "Continuous System Simulation", Springer 2006, problem P10.1
//         (plant data of the Franklin/Powell/Emami-Naeini helicopter example, observer-based
//         design as in Kailath); reference tests/refdata/helicopter.py (helicopter.csv).
//   plant:      der(x) = A*x + B*u,  y = C*x     x = (horizontal velocity, pitch rate, pitch angle)
//   controller: u = -k*xhat + r                  (state feedback on the estimate, r = 0)
//   observer:   der(xhat) = A*xhat + B*u + h*(y - C*xhat)
// B = {9.8, 6.3, 0}: the value 0.9 for B[1] in the original brief is a typo (refdata README
// section 4): only B[1] = 9.8 puts eig(A - B*k) at the design poles -2, -1 +- j.
// The literal variant is Helicopter(B = {0.9, 6.3, 0}), reference helicopter_B0.9.csv.
// Observer poles -4, -2 +- 2j; FE is stable for h < 0.499996.
// CSV columns: x1, x2, x3, xhat1, xhat2, xhat3 (= x[1..3], xhat[1..3]).
model Helicopter "Helicopter near hover with observer-based output feedback (Cellier & Kofman P10.1)"
  parameter Real A[3, 3] = [-0.02, -1.4, 9.8; -0.01, -0.4, 0; 0, 1, 0] "plant system matrix";
  parameter Real B[3] = {9.8, 6.3, 0} "plant input vector (rotor tilt)";
  parameter Real C[3] = {1, 0, 0} "output vector (horizontal velocity is measured)";
  parameter Real k[3] = {0.0627, 0.4706, 1} "state feedback gain (poles -2, -1 +- j)";
  parameter Real h[3] = {7.58, 2.2695, 2.4644} "observer gain (poles -4, -2 +- 2j)";
  parameter Real r = 0 "reference input";
  Real x[3](start = {0, 0, 0.1}, each fixed = true)
    "plant state: horizontal velocity, pitch rate, pitch angle [rad]";
  Real xhat[3](each start = 0, each fixed = true) "observer estimate of x";
  Real u "control input (rotor tilt)";
  Real y "measured output";
equation
  der(x) = A*x + B*u;
  y = C*x;
  u = -k*xhat + r;
  der(xhat) = A*xhat + B*u + h*(y - C*xhat);
  annotation(experiment(StartTime = 0, StopTime = 10, Interval = 0.01));
end Helicopter;
