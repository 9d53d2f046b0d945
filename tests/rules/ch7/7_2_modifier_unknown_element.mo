// 7.2: a modifier must name an element (or attribute) of the modified class
model A
  Real x = 1;
end A;

model ModifierUnknownElement
  A a(y = 2);
end ModifierUnknownElement;
