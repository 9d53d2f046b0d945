model DCMotor "Permanent-magnet DC motor driven by an armature voltage input"
  parameter Real R = 1.2 "Armature resistance (Ohm)";
  parameter Real L = 0.05 "Armature inductance (H)";
  parameter Real k = 0.1 "Torque and back-EMF constant (N.m/A = V.s/rad)";
  parameter Real J = 0.01 "Rotor inertia (kg.m2)";
  parameter Real b = 0.001 "Viscous friction (N.m.s/rad)";
  input Real u(start = 0) "Armature voltage (V)";
  output Real w(start = 0, fixed = true) "Speed (rad/s)";
  Real i(start = 0, fixed = true) "Armature current (A)";
equation
  L * der(i) = u - R * i - k * w;
  J * der(w) = k * i - b * w;
  annotation(experiment(StartTime = 0, StopTime = 2, Interval = 1e-3));
end DCMotor;
