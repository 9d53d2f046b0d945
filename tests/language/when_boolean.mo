// Specification 8.5, 8.3.5: a when-condition of Boolean variables that equations define
// (b = time > 0.72) fires when they become true, at the time event of the relation (the
// relation of a Boolean equation is an event, as in an if-expression); a vector condition
// {b, c} fires on each element's rise. Forward Euler at h = 0.1 to t = 1: n = 1 (b rose once),
// m = 2 (c at 0.35, b at 0.72), k = 2 (c at 0.35, then `both = b and c` at 0.72).
// run: method=fe step=0.1 stop=1
// expect: n 1
// expect: m 2
// expect: k 2
model WhenBoolean
  Boolean b;
  Boolean c;
  Boolean both;
  discrete Real n(start = 0, fixed = true);
  discrete Real m(start = 0, fixed = true);
  Integer k(start = 0, fixed = true);
equation
  b = time > 0.72;
  c = time > 0.35;
  both = b and c;
  when b then
    n = pre(n) + 1;
  end when;
  when {b, c} then
    m = pre(m) + 1;
  end when;
  when {both, c} then
    k = pre(k) + 1;
  end when;
end WhenBoolean;
