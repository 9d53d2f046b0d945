within Rtc;
package SI "Physical types with SI units (names as in Modelica.Units.SI)"
  // Electrical
  type Voltage = Real(unit = "V") "Electric potential or potential difference";
  type Current = Real(unit = "A") "Electric current";
  type Resistance = Real(unit = "Ohm") "Electric resistance";
  type Conductance = Real(unit = "S") "Electric conductance";
  type Capacitance = Real(unit = "F") "Electric capacitance";
  type Inductance = Real(unit = "H") "Inductance";

  // Time
  type Time = Real(unit = "s") "Time";
  type Frequency = Real(unit = "Hz") "Frequency";

  // Translational mechanics
  type Position = Real(unit = "m") "Position";
  type Length = Real(unit = "m") "Length";
  type Distance = Real(unit = "m") "Distance (non-negative length)";
  type Velocity = Real(unit = "m/s") "Velocity";
  type Acceleration = Real(unit = "m/s2") "Acceleration";
  type Mass = Real(unit = "kg") "Mass";
  type Force = Real(unit = "N") "Force";
  type TranslationalSpringConstant = Real(unit = "N/m") "Translational spring constant";
  type TranslationalDampingConstant = Real(unit = "N.s/m") "Translational damping constant";

  // Rotational mechanics
  type Angle = Real(unit = "rad") "Plane angle";
  type Torque = Real(unit = "N.m") "Torque";
  type Inertia = Real(unit = "kg.m2") "Moment of inertia";
  type AngularVelocity = Real(unit = "rad/s") "Angular velocity";
  type AngularAcceleration = Real(unit = "rad/s2") "Angular acceleration";
  type RotationalSpringConstant = Real(unit = "N.m/rad") "Rotational spring constant";
  type RotationalDampingConstant = Real(unit = "N.m.s/rad") "Rotational damping constant";
end SI;
