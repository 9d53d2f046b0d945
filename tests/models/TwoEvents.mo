// Two state events inside one step of 1e-3 s: x falls through 0.5004 and then 0.5 within
// the step from 0.4995 to 0.5005 s. The earlier is located and handled, then the later is
// located in the rest of the step (tests/events.rs).
model TwoEvents
  Real x(start = 1, fixed = true);
  discrete Real a(start = 0);
  discrete Real b(start = 0);
equation
  der(x) = -1;
  when x <= 0.5 then
    a = 1;
  end when;
  when x <= 0.5004 then
    b = 1;
  end when;
end TwoEvents;
