// Enumerations (specification 4.9.5): literals, comparisons, Integer(), arrays indexed by an
// enumeration, `for e in E`, and an enumeration input of a function.
// run: method=be step=0.25 stop=1
// expect: g 5
// expect: n 3
// expect: k 2
model Enumerations
  type Level = enumeration(low, mid, high);
  function gainOf
    input Level l;
    input Real gains[Level];
    output Real g;
  algorithm
    g := gains[l];
  end gainOf;
  parameter Real gains[Level] = {1, 2, 5};
  Real x(start = 0, fixed = true);
  Level level;
  Real g;
  Integer n;
  Integer k;
equation
  der(x) = 1;
  level = if x > 0.5 then Level.high else Level.low;
  g = gainOf(level, gains);
  n = sum(1 for e in Level);
  k = Integer(Level.mid);
end Enumerations;
