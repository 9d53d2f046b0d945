// Specification 8.6: in the initial system, pre(v) of a discrete variable is its start value,
// and an initial equation `pre(v) = e` (e of parameters) gives that value. The initial
// equations of z and w read them (z and w keep those values: der = 0); after the
// initialisation the event iteration at the start time settles pre(v) = v, which the
// variables computed from pre(b) and pre(u) then show.
model PreAtStart
  parameter Boolean u0 = true;
  discrete Real d(start = 3, fixed = true);
  Boolean b(start = true);
  Boolean u;
  Real y;
  Real z;
  Real w;
  Real zs;
  Real ws;
equation
  when sample(0.5, 1) then
    d = pre(d) + 1;
  end when;
  b = time > 0.7;
  u = time > 0.2;
  y = pre(d);
  der(z) = 0;
  der(w) = 0;
  zs = if pre(b) then 1 else 2;
  ws = if pre(u) then 10 else 20;
initial equation
  pre(u) = u0;
  z = if pre(b) then 1 else 2;
  w = if pre(u) then 10 else 20;
end PreAtStart;
// run: method=fe step=0.1 stop=0
// expect: y 3
// expect: z 1
// expect: w 10
// expect: zs 2
// expect: ws 20
