// 10.4: array() / {} without arguments is not defined
model EmptyArrayConstructor
  Real v[0] = {};
end EmptyArrayConstructor;
