// 7.2: a modifier value (binding or start) must be type-compatible with the modified element
model ModifierValueTypeMismatch
  Real x(start = "a") = 1;
end ModifierValueTypeMismatch;
