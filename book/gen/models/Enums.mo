model Enums
  type Mode = enumeration(off "switched off", low, high);
  parameter Mode mode = Mode.low;
  parameter Real gain[Mode] = {0, 1, 5};
  Real x(start = 1, fixed = true, stateSelect = StateSelect.prefer);
  Mode level;
equation
  der(x) = -gain[mode] * x;
  level = if x > 0.5 then Mode.high elseif x > 0.1 then Mode.low else Mode.off;
  assert(mode <> Mode.off, "mode " + String(mode) + " leaves x constant");
end Enums;
