// Neighbouring assignments that code generation computes in the two lanes of an f64x2
// (codegen `pairable`): square roots, absolute values, min/max, comparisons, and/or/not and
// selections, with lanes that take different branches (the elements cross zero at different
// times) and a component's equations interleaved, so that partners are found past their
// neighbours. The JIT must stay bitwise the interpreter's (tests/it/codegen.rs,
// paired_lanes_equal_the_interpreter).
model PairedLanes
  parameter Integer n = 33 "odd, so that pairs and loops leave tails";
  parameter Real a[n] = {0.7 - 0.06*j for j in 1:n};
  Real x[n](start = {0.5 - 0.03*j for j in 1:n}, each fixed = true);
  Real y[n](start = {1.0 + 0.04*j for j in 1:n}, each fixed = true);
  Real s[n];
  Real m[n];
equation
  for j in 1:n loop
    der(x[j]) = -sqrt(abs(y[j]))*x[j] + a[j]*noEvent(if x[j] > 0 and not y[j] < 1.5 then 1 else -1);
    s[j] = noEvent(min(x[j], y[j] - 1.2) + max(-x[j], 0.1*y[j]));
    m[j] = noEvent(if x[j] > 0 or y[j] >= 1.5 then s[j] else -s[j]);
    der(y[j]) = -0.5*m[j] - 0.1*y[j] + 0.2*abs(x[j]) + noEvent(if x[j] <= y[j] then 0.05 else -0.05);
  end for;
end PairedLanes;
