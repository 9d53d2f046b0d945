// 7.3: a redeclare in a modifier must replace an existing element of the modified class
model A
  replaceable Real x = 1;
end A;

model RedeclareModifierUnknown
  A a(redeclare Real y = 2);
end RedeclareModifierUnknown;
