// Specification 8.5 and 8.6: an event function that holds a selection on time (a ramp's
// `if time < startTime then … else …`, whose relation is a time event splitting the step)
// does not jump inside a part of the step, so its crossing is located, not put at the end
// of the step. An on-off controller on a ramp: T rises at 1/s from 0; the reference is
// r = 0.95 + 0.1 t after t = 0.5; the controller switches off when Tc = T − 0.5 reaches
// r + 0.1: t − 0.5 = 1.05 + 0.1 t, so 0.9 t = 1.55, t = 1.7222… (between the steps 1.7 and
// 1.75; before the fix the event acted at the end of the step, 1.75).
model EventOnARamp
  Real T(start = 0, fixed = true);
  Boolean y(start = true, fixed = true);
  parameter Real startTime = 0.5;
  Real r = 1 + (if time < startTime then 0 else 0.1*(time - startTime));
  Real Tc = T - 0.5;
  discrete Real tOff(start = 0, fixed = true);
equation
  der(T) = if y then 1.0 else 0.0;
  y = pre(y) and Tc < r + 0.1 or not pre(y) and Tc < r - 0.1;
  when not y then
    tOff = time;
  end when;
end EventOnARamp;
// run: method=trapezoid step=0.05 stop=1.8
// expect: tOff 1.7222222222222222
