// 7.2.7: a break modifier cannot override a final modifier
model A
  parameter Real d(start = 1) = 2;
end A;

model B
  A a(final d = 3);
end B;

model BreakOverridesFinal
  B b(a(d = break));
end BreakOverridesFinal;
