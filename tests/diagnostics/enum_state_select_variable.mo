model EnumStateSelectVariable
  parameter StateSelect s = StateSelect.prefer;
  Real x(start = 1, fixed = true, stateSelect = StateSelect.alwys);
equation
  der(x) = -x;
end EnumStateSelectVariable;
