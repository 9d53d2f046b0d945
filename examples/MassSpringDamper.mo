// MassSpringDamper: a mass on a spring and a damper (in parallel, both attached to a fixed
// housing), pushed by a force step -- component-form demo of Rtc.Mechanics.Translational.
// Source: the standard single-degree-of-freedom oscillator m*s'' + d*s' + c*s = F; the
//         component structure follows the Modelica Standard Library translational examples.
// With m = 1 kg, c = 100 N/m, d = 4 N.s/m: wn = sqrt(c/m) = 10 rad/s, zeta = d/(2*sqrt(c*m)) = 0.2.
// Closed form for t >= 0.1 (tau = t - 0.1, wd = wn*sqrt(1 - zeta^2) = 9.797959):
//   mass.s = F/c*(1 - exp(-zeta*wn*tau)*(cos(wd*tau) + zeta/sqrt(1 - zeta^2)*sin(wd*tau)))
// i.e. a 52.7 % overshoot step response settling at F/c = 0.1 m.
// Note: Damper computes v_rel = der(flange_b.s) - der(flange_a.s); with flange_a fixed this
// reduces to mass.v, without differentiating any algebraic variable.
model MassSpringDamper "Mass-spring-damper driven by a force step, component form"
  parameter Rtc.SI.Mass m = 1 "mass";
  parameter Rtc.SI.TranslationalSpringConstant c = 100 "spring constant";
  parameter Rtc.SI.TranslationalDampingConstant d = 4 "damping constant";
  parameter Rtc.SI.Force F = 10 "height of the force step";
  parameter Rtc.SI.Time tStep = 0.1 "time of the force step";

  Rtc.Mechanics.Translational.Fixed fixed "housing at s = 0";
  Rtc.Mechanics.Translational.Spring spring(c = c) "spring between housing and mass";
  Rtc.Mechanics.Translational.Damper damper(d = d) "damper between housing and mass";
  Rtc.Mechanics.Translational.Mass mass(m = m, s(start = 0, fixed = true), v(start = 0, fixed = true))
    "sliding mass";
  Rtc.Mechanics.Translational.Force force "external force on the mass";
  Rtc.Blocks.Step step(height = F, startTime = tStep) "force command";
  Rtc.Mechanics.Translational.PositionSensor positionSensor "measures the mass position";
equation
  connect(fixed.flange, spring.flange_a);
  connect(fixed.flange, damper.flange_a);
  connect(spring.flange_b, mass.flange_a);
  connect(damper.flange_b, mass.flange_a);
  connect(force.flange, mass.flange_b);
  connect(step.y, force.f);
  connect(positionSensor.flange, mass.flange_b);
  annotation(experiment(StartTime = 0, StopTime = 3, Interval = 1e-3));
end MassSpringDamper;
