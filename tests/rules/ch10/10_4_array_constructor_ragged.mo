// 10.4: array(A, B, ...): all arguments must have the same sizes (arrays are rectangular)
model ArrayConstructorRagged
  Real m[2, 2] = {{1, 2}, {3}};
end ArrayConstructorRagged;
