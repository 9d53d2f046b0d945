// Index reduction that makes an algebraic variable a state: the flux psi1 = L1·i of an
// inductor in series, through a ratio, with a second inductor (i = k·i2) ties two states
// (psi1, i2) through the algebraic current i. Pantelides differentiates both constraints,
// giving i a derivative; with stateSelect = prefer the dummy derivatives are der(psi1) and
// der(i2), and i is the state (rtc reported "no counterpart in the step system" for it
// before). v1 + v2 = L1·der(i) + (L2/k)·der(i)/k... with these values der(i) = (3 - i)/7,
// so i(t) = 3·(1 - exp(-t/7)).
model AlgebraicBecomesState
  parameter Real L1 = 2;
  parameter Real L2 = 1;
  parameter Real k = 3;
  Real psi1;
  Real i(stateSelect = StateSelect.prefer, start = 0, fixed = true);
  Real i2;
  Real v1;
  Real v2;
equation
  der(psi1) = v1;
  L2 * der(i2) = v2;
  psi1 = L1 * i;
  i = k * i2;
  v1 + v2 = 1 - i2;
end AlgebraicBecomesState;
