// 3.2: exponentiation is non-associative (x ^ y ^ z is invalid)
model ExponentChain
  Real x = time;
  Real y = x ^ 2 ^ 2;
end ExponentChain;
