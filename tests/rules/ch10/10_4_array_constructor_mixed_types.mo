// 10.4: array(A, B, ...): arguments must be type compatible
model ArrayConstructorMixedTypes
  Real v[2] = {1.0, true};
end ArrayConstructorMixedTypes;
