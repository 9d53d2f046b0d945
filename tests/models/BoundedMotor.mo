model BoundedMotor "a DC motor whose input and parameters declare their bounds"
  parameter Real R(min = 0) = 1.2 "armature resistance (Ohm)";
  parameter Real L(min = 0) = 0.05 "armature inductance (H)";
  parameter Real k = 0.1 "torque and back-EMF constant";
  parameter Real J(min = 0) = 0.01 "rotor inertia";
  parameter Integer poles(min = 2, max = 12) = 4 "pole count (read by nothing here)";
  input Real u(start = 5, min = -10, max = 10) "armature voltage (V)";
  Real i(start = 0, fixed = true) "armature current";
  Real w(start = 0, fixed = true) "speed";
equation
  L*der(i) = u - R*i - k*w;
  J*der(w) = k*i;
  annotation(experiment(StopTime = 1));
end BoundedMotor;
