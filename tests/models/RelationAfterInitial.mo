// Relations the initial system does not read generate events too (specification 8.5):
// behind `if initial() then … else …` the initial system reads the first branch and the
// steps the second, whose relation `x > 0.55` is frozen between events and located like any
// other (the MSL's ElastoBacklash writes its contact `phi_diff > bMax` so). With der(x) = 1
// the crossing is at t = 0.55, inside the step [0.5, 0.6] of h = 0.1: y is 0 before and 1
// after, and z(1) = 0.45 (tests/it/events.rs, relations_behind_initial_are_events). Before,
// the relation made no event, the step read it live at its end, and z(1) was 0.5.
model RelationAfterInitial
  Real x(start = 0, fixed = true);
  Real z(start = 0, fixed = true);
  Real y;
equation
  der(x) = 1;
  y = if initial() then 0 else if x > 0.55 then 1 else 0;
  der(z) = y;
end RelationAfterInitial;
