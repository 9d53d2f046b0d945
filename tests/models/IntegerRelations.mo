model IntegerRelations "relations of an Integer are not zero-crossing events"
  // idx jumps 1 -> 2 at 0.5 and 2 -> 0 at 0.56; as a zero-crossing function, idx - 1 would
  // "cross" at 0.56 (from 1 to -1) though idx is never 1 there.
  Integer idx = if time < 0.5 then 1 else if time < 0.56 then 2 else 0;
  Real y = if idx == 1 then 4 else if idx == 2 then 6 else 2;
  Real x(start = 0, fixed = true);
equation
  der(x) = y;
  annotation(experiment(StopTime = 1));
end IntegerRelations;
