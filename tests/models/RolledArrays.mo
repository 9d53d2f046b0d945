// Repeated assignments that code generation rolls into loops (codegen/roll.rs): two arrays of
// states whose equations use the C math library, a selection, min/max and a shared
// parameter; an algebraic array; and a running sum whose every element reads the previous
// one (a chain: each assignment reads an earlier one's target, so it must stay straight-line).
// The JIT must stay bitwise the interpreter's (tests/it/codegen.rs, rolled_loops_*).
model RolledArrays
  parameter Integer n = 41 "odd, so that pairs and loops leave tails";
  parameter Real k = 0.5;
  Real x[n](each start = 0.3, each fixed = true);
  Real y[n](each start = 1, each fixed = true);
  Real z[n];
  Real w[n];
equation
  for j in 1:n loop
    der(x[j]) = -k*x[j] + sqrt(abs(y[j]))*sin(x[j]) + noEvent(if x[j] > 0.2 then 0.1 else -0.1);
    der(y[j]) = max(-y[j], x[j] - y[j])/(1 + x[j]^2) - 0.01*w[j];
    z[j] = x[j]*y[j];
  end for;
  w[1] = z[1];
  for j in 2:n loop
    w[j] = w[j - 1] + z[j];
  end for;
end RolledArrays;
