// args: --method be --step 0.01
// A linear RC low-pass in component form: alias elimination leaves a chain of explicit
// assignments and one linear loop through the capacitor, solved without iteration.
model RCBackwardEuler
  Rtc.Electrical.StepVoltage source(V = 1, startTime = 0);
  Rtc.Electrical.Resistor resistor(R = 100);
  Rtc.Electrical.Capacitor capacitor(C = 1e-3, v(start = 0, fixed = true));
  Rtc.Electrical.Ground ground;
equation
  connect(source.p, resistor.p);
  connect(resistor.n, capacitor.p);
  connect(capacitor.n, source.n);
  connect(capacitor.n, ground.p);
end RCBackwardEuler;
