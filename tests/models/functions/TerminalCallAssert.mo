// An assertion in `when terminal()` on an output of a call the body assigns: it reads the
// assigned variable, not the call (which would otherwise be made again after every step).
// `stats` reports an error (info = 1) for a buffer with a positive total: the assertion fails
// once, after the terminal event, on the value the event assigned.
model TerminalCallAssert
  function stats "compiled out of line"
    input Real u[:];
    output Integer info;
    output Real total;
  algorithm
    total := sum(u);
    info := if total > 0 then 1 else 0;
    annotation(Inline = false);
  end stats;
  Real x(start = 1, fixed = true);
  Real buf[3](each start = 0, each fixed = true);
  Integer info(start = 0, fixed = true);
  Real total(start = 0, fixed = true);
equation
  der(x) = -x;
algorithm
  when sample(0.1, 0.1) then
    buf := {x, 2 * x, 3 * x};
  end when;
  when terminal() then
    if x > 2 then
      info := -1;
    else
      (info, total) := stats(buf);
      assert(info == 0, "stats reports an error");
    end if;
  end when;
end TerminalCallAssert;
