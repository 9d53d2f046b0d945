// 6.4: a modifier must be compatible with the modified element (value of wrong type)
model M
  Real x = 1;
end M;

model ModifierIncompatible
  M m(x = true);
end ModifierIncompatible;
