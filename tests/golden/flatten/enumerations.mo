// Enumerations (specification 4.9.5): a type's literals, a short class of an enumeration,
// an array dimension given by an enumeration, literal ranges and `for e in E`, comparisons,
// Integer() and String() of a literal, and the built-in StateSelect on a variable.
model Enumerations
  type Mode = enumeration(off "switched off", low, high);
  type Mode2 = Mode;
  parameter Mode m = Mode.low;
  parameter Mode2 m2 = Mode2.high;
  parameter Real gain[Mode] = {0, 1, 2};
  Real x(start = 1, fixed = true, stateSelect = StateSelect.prefer);
  Real y;
  Integer k = Integer(m);
  Mode cur;
  parameter String s = String(m2);
  Real tot;
equation
  der(x) = -gain[m] * x;
  cur = if x > 0.5 then Mode.high else Mode.low;
  y = if cur == Mode.high then 1 else if cur > Mode.off then 2 else 3;
  tot = sum(gain[e] for e in Mode.low : Mode.high) + sum(gain[e] for e in Mode);
  assert(m <> Mode.off, "off " + s);
end Enumerations;
