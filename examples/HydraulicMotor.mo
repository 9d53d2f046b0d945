// HydraulicMotor: position control of a hydraulic motor driven through a four-way servo
// valve with a moving-coil (electro-mechanical) actuator; proportional controller with
// saturation.
// Source: F.E. Cellier, E. Kofman, "Continuous System Simulation", Springer 2006,
//         homework problem H10.4; equations, sign conventions and parameter values exactly as
//         in tests/refdata/hydraulic.py (docstring) and hydraulic.json
//         (reference: hydraulic.csv; CSV columns theta_m, omega_m, p1, p2, x, v, i_s).
// Non-smooth: clip(a) = min(max(a, 0), 1) and sgnsqrt(d) = sign(d)*sqrt(abs(d)) are written
// inline. Stiff: the electrical mode of the valve coil (L_s/R_s) gives eigenvalue -12293 at t = 0
// (FE needs h < 1.63e-4); near a zero pressure drop across an open orifice the sqrt slope is
// unbounded. There are no pressure limits: p1 goes below 0 and p2 above ps during the
// transient (this comes from the equations, see refdata README section 2).
// How to run it: mixed mode with the coil current implicit,
//   rtc run examples/HydraulicMotor.mo --method mixed   (i_s is marked implicit below)
// Backward Euler at h = 1e-4 needs --newton-iterations 30: near t = 0.079 a pressure crosses
// the supply pressure at an open orifice, where Newton converges only linearly.
model HydraulicMotor "Hydraulic motor position control with servo valve (Cellier & Kofman H10.4)"
  // hydraulic motor and chambers
  parameter Real c1(unit = "Pa/m3") = 5.857e13 "capacitance coefficient of a chamber (bulk modulus / volume)";
  parameter Real ci(unit = "m3/(s.Pa)") = 0.737e-13 "internal leakage coefficient (chamber 1 -> 2)";
  parameter Real ce(unit = "m3/(s.Pa)") = 0.737e-12 "external leakage coefficient (chamber -> ambient)";
  parameter Real p0(unit = "Pa") = 1.0132e5 "ambient (tank) pressure";
  parameter Real ps(unit = "Pa") = 0.137e8 "supply pressure";
  parameter Real psi_m(unit = "m3/rad") = 0.575e-5 "motor displacement constant";
  parameter Real Jm(unit = "kg.m2") = 0.08 "moment of inertia of motor and load";
  parameter Real rho_m(unit = "N.m.s/rad") = 1.5 "viscous friction coefficient of the motor";
  // four-way valve
  parameter Real k = 0.248e-6 "orifice flow coefficient, q = k*opening*sgnsqrt(dp)";
  parameter Real x0 = 0.05 "valve underlap: orifice openings are clip(x0 +- x)";
  // moving-coil valve actuator
  parameter Real R_s(unit = "Ohm") = 1.25e-5 "coil resistance";
  parameter Real L_s(unit = "H") = 1e-9 "coil inductance";
  parameter Real psi_s = 0.005 "electro-mechanical coupling constant of the coil";
  parameter Real m_s(unit = "kg") = 0.01 "mass of spool and coil";
  parameter Real k_s = 400 "centering spring constant of the spool";
  parameter Real rho_s = 2 "viscous friction of the spool";
  // controller
  parameter Real k_l(unit = "V/rad") = 0.5 "proportional controller gain";
  parameter Real theta_set(unit = "rad") = 1 "angle set point (step at t = 0)";
  parameter Real u_max(unit = "V") = 1 "saturation of the controller output";

  // states (CSV order)
  Real theta_m(unit = "rad", start = 0, fixed = true) "motor angle";
  Real omega_m(unit = "rad/s", start = 0, fixed = true) "motor angular velocity";
  Real p1(unit = "Pa", start = (ps + p0)/2, fixed = true) "pressure in chamber 1 (initially 6900660 Pa)";
  Real p2(unit = "Pa", start = (ps + p0)/2, fixed = true) "pressure in chamber 2 (initially 6900660 Pa)";
  Real x(start = 0, fixed = true) "valve spool position (normalised, openings x0 +- x)";
  Real v(start = 0, fixed = true) "valve spool velocity";
  Real i_s(unit = "A", start = 0, fixed = true) "valve coil current"
    annotation(__rtc(implicit = true));

  // algebraic variables
  Real u(unit = "V") "controller output (coil voltage)";
  Real q1 "flow supply -> chamber 1";
  Real q2 "flow chamber 1 -> ambient";
  Real q3 "flow supply -> chamber 2";
  Real q4 "flow chamber 2 -> ambient";
  Real qL1 "net valve flow into chamber 1";
  Real qL2 "net valve flow out of chamber 2";
  Real qi "internal leakage flow chamber 1 -> 2";
  Real qe1 "external leakage flow chamber 1 -> ambient";
  Real qe2 "external leakage flow chamber 2 -> ambient";
  Real qind "induced (displacement) flow 1 -> 2 through the motor";
  Real tau_m(unit = "N.m") "motor torque";
equation
  // controller: saturated proportional control of the motor angle
  u = min(max(k_l*(theta_set - theta_m), -u_max), u_max);

  // moving-coil valve actuator
  L_s*der(i_s) = u - R_s*i_s - psi_s*v;
  m_s*der(v) = psi_s*i_s - k_s*x - rho_s*v;
  der(x) = v;

  // four-way valve, turbulent orifices: q = k*clip(opening)*sgnsqrt(dp)
  q1 = k*min(max(x0 + x, 0), 1)*sign(ps - p1)*sqrt(abs(ps - p1));
  q2 = k*min(max(x0 - x, 0), 1)*sign(p1 - p0)*sqrt(abs(p1 - p0));
  q3 = k*min(max(x0 - x, 0), 1)*sign(ps - p2)*sqrt(abs(ps - p2));
  q4 = k*min(max(x0 + x, 0), 1)*sign(p2 - p0)*sqrt(abs(p2 - p0));
  qL1 = q1 - q2;
  qL2 = q4 - q3;

  // motor chambers
  qi = ci*(p1 - p2);
  qe1 = ce*(p1 - p0);
  qe2 = ce*(p2 - p0);
  qind = psi_m*omega_m;
  der(p1) = c1*(qL1 - qi - qe1 - qind);
  der(p2) = c1*(qind + qi - qe2 - qL2);

  // motor mechanics
  tau_m = psi_m*(p1 - p2);
  Jm*der(omega_m) = tau_m - rho_m*omega_m;
  der(theta_m) = omega_m;
  annotation(experiment(StartTime = 0, StopTime = 0.5, Interval = 1e-4));
end HydraulicMotor;
