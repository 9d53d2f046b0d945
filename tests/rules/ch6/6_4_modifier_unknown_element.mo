// 6.4: a modifier must refer to an element that exists in the modified element
model M
  Real x = 1;
end M;

model ModifierUnknownElement
  M m(y = 2);
end ModifierUnknownElement;
