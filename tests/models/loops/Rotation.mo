// A vector given in a rotated frame, b solved from a = R(phi)·b: each equation of the
// rotation is linear in b[1] and b[2] with coefficients cos(phi) and ±sin(phi), one of which
// is zero at phi = 0 (and the other at phi = π/2). Solving an equation for the variable with
// the sine coefficient divided by zero at the start; rtc solves such a pair as one linear
// block (its LU pivots) and never divides by a coefficient that passes through zero.
model Rotation
  Real phi(start = 0, fixed = true);
  Real R[2, 2] = {{cos(phi), -sin(phi)}, {sin(phi), cos(phi)}};
  Real a[2] = {cos(2 * time), 1};
  Real b[2];
equation
  der(phi) = 1;
  a = R * b;
end Rotation;
