// RCCircuit: a voltage step applied to an R-C low-pass filter -- component-form demo of
// Rtc.Electrical.
// Source: textbook first-order RC circuit (any circuit-theory text).
// With R = 100 Ohm, C = 1e-3 F the time constant is R*C = 0.1 s; closed form
//   capacitor.v = V*(1 - exp(-(time - tStep)/(R*C)))  for time >= tStep, 0 before.
// Single eigenvalue -1/(R*C) = -10: FE is stable for h < 0.2.
model RCCircuit "Step voltage driving an R-C low-pass filter, component form"
  parameter Rtc.SI.Voltage V = 1 "height of the voltage step";
  parameter Rtc.SI.Time tStep = 0.1 "time of the voltage step";
  parameter Rtc.SI.Resistance R = 100 "series resistance";
  parameter Rtc.SI.Capacitance C = 1e-3 "capacitance";

  Rtc.Electrical.StepVoltage source(V = V, startTime = tStep) "step voltage source";
  Rtc.Electrical.Resistor resistor(R = R) "series resistor";
  Rtc.Electrical.Capacitor capacitor(C = C, v(start = 0, fixed = true)) "filter capacitor (output voltage)";
  Rtc.Electrical.Ground ground "ground";
equation
  connect(source.p, resistor.p);
  connect(resistor.n, capacitor.p);
  connect(capacitor.n, ground.p);
  connect(source.n, ground.p);
  annotation(experiment(StartTime = 0, StopTime = 1, Interval = 1e-3));
end RCCircuit;
