// Specification 3.7.4.3: edge(b) = b and not pre(b), change(v) = v <> pre(v), in equations as
// well as in when-conditions. They are true only at the event instant where the value
// changed (between events pre(v) is v), so a when-condition on them fires once per rise (or
// change). u rises at 0.35 and falls at 0.75: n counts the rise, m both changes; y and z are
// false again at the stop time. Forward Euler at h = 0.1 to t = 1.
// run: method=fe step=0.1 stop=1
// expect: n 1
// expect: m 2
// expect: y 0
// expect: z 0
model EdgeChangeInEquations
  Boolean u;
  Boolean y;
  Boolean z;
  discrete Real n(start = 0, fixed = true);
  discrete Real m(start = 0, fixed = true);
equation
  u = time > 0.35 and time < 0.75;
  y = edge(u);
  z = change(u);
  when y then
    n = pre(n) + 1;
  end when;
  when z then
    m = pre(m) + 1;
  end when;
end EdgeChangeInEquations;
