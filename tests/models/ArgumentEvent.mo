// A relation written as a function's argument is evaluated outside the function, so it
// generates events (specification 8.5); relations in the function's body do not (8.5, 12.8).
// Inlining wraps the body's relations in noEvent and leaves the argument's alone: the time
// event `time > 0.55` is located at 0.55, not at the next step, and `x > 0.2` in the body
// is none (tests/it/events.rs, relations_in_arguments_are_events).
model ArgumentEvent
  function f
    input Boolean b;
    input Real x;
    output Real y;
  algorithm
    y := if b then x else (if x > 0.2 then 2*x else 0);
  end f;
  Real z(start = 0, fixed = true);
  Real y;
equation
  y = f(time > 0.55, z);
  der(z) = 1 - y;
end ArgumentEvent;
