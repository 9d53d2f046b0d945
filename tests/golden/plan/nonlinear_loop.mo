// args: --method be --step 0.1
// An algebraic loop that no equation can be solved for explicitly: a nonlinear block with
// its residual and symbolic Jacobian.
model NonlinearLoop
  Real x(start = 1, fixed = true);
  Real z;
equation
  der(x) = -z;
  z + 0.1*z^3 = x;
end NonlinearLoop;
