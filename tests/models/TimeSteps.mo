// Relations of time alone are time events: the step containing startTime is split there and
// the frozen relation changes exactly at it. x integrates a step at 0.1005 (inside a step of
// 1e-3), w one at the start time 0, and v a ramp that starts when time > 0.05 (a `>`
// relation whose value changes just after its time).
model TimeSteps
  Rtc.Blocks.Step s(height = 1, startTime = 0.1005);
  Rtc.Blocks.Step s0(height = 1, startTime = 0);
  Real x(start = 0, fixed = true);
  Real w(start = 0, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = s.y;
  der(w) = s0.y;
  der(v) = if time > 0.05 then 1 else 0;
end TimeSteps;
