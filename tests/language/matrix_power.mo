// Scalar exponentiation of a square matrix (specification 10.6.8): a ^ s for an Integer
// s >= 0 is s repeated products, a ^ 0 the identity. [1, 1; 0, 1] ^ 3 = [1, 3; 0, 1];
// [t, 1; 0, t] ^ 2 = [t^2, 2t; 0, t^2] (at t = 1: 1, 2, 0, 1); [2, 0; 0, 3] ^ 0 = identity.
// The valid twin of the rules that refuse a vector power and a non-square, Real-exponent or
// negative matrix power.
// run: method=fe step=0.25 stop=1
// expect: a[1,2] 3
// expect: b[1,1] 1
// expect: b[1,2] 2
// expect: b[2,2] 1
// expect: c[1,1] 1
// expect: c[1,2] 0
model MatrixPower
  Integer a[2, 2] = [1, 1; 0, 1] ^ 3;
  Real b[2, 2] = [time, 1; 0, time] ^ 2;
  Real c[2, 2] = [2, 0; 0, 3] ^ 0;
end MatrixPower;
