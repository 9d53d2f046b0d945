// Three unknowns, each nonlinear in every equation: tearing cannot solve any equation for one
// of them, so the loop keeps all three as tearing variables. The diagonal of its Jacobian is
// exp(x), exp(y), exp(z); the off-diagonal 3x², 3y², 3z² are larger where an unknown is above
// about 1.2, so the LU exchanges rows, and which rows changes as time moves the solution
// (test codegen::small_loops_pivot_alike: the LU of small loops in registers against the
// interpreter's, bitwise).
model PivotLoop
  Real x(start = 1.5);
  Real y(start = 0.2);
  Real z(start = -0.5);
  Real s(start = 0, fixed = true);
equation
  der(s) = x + y + z;
  0 = exp(x) + y^3 + z^3 - 5 - 2*sin(3*time);
  0 = x^3 + exp(y) + z^3 - 4 - 2*cos(2*time);
  0 = x^3 + y^3 + exp(z) - 3 - time;
end PivotLoop;
