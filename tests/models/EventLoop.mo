// An event iteration that never settles: at x = 0.5, p > q and q >= p make each other true
// in turn. rtc stops after its bound on rounds per instant (status 5), naming an event.
// (`p` is defined by one when-equation, specification 8.3.5.4: its vector condition fires
// on x > 0.5 and on each new q >= p.)
model EventLoop
  Real x(start = 0, fixed = true);
  discrete Integer p(start = 0);
  discrete Integer q(start = 0);
equation
  der(x) = 1;
  when {x > 0.5, q >= p} then
    p = q + 1;
  end when;
  when p > q then
    q = p;
  end when;
end EventLoop;
