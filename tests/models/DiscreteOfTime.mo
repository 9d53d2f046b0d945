// A relation of an enumeration variable that is a function of time (a digital table's
// output, 8.5): it changes only at the time events of that variable's own relations, so it is
// no crossing of its own. Before 2026-11-28 the variable was written out as its function of
// time, the relation `f(y) > 0` became a crossing with a slot of its own, and at the instant
// that slot could flip before `y` did: `w` read `mem` at the address `f(y) == …` had not seen
// yet, NaN (the MSL's Digital `RAM` example stopped at t = 100 so).
model DiscreteOfTime
  type L = enumeration(U, X, Z0, Z1);
  function f "compiled out of line (it has a loop)"
    input L a;
    output Integer k;
  algorithm
    k := 0;
    for i in 1:2 loop
      if a == L.Z0 then
        k := 1;
      end if;
    end for;
  end f;
  parameter L x[2] = {L.X, L.Z0};
  parameter Real t[2] = {0.25, 0.55};
  L mem[2, 2](start = fill(L.U, 2, 2));
  L w[2](start = fill(L.U, 2));
  Integer k;
  L y;
algorithm
  if initial() then
    mem := {{L.Z0, L.Z1}, {L.Z1, L.Z0}};
  end if;
  k := f(y);
  if k > 0 then
    w := mem[k, 1:2];
  end if;
algorithm
  y := L.U;
  for i in 1:2 loop
    if time >= t[i] then
      y := x[i];
    end if;
  end for;
end DiscreteOfTime;
