// 7.2.3: a value for a whole non-simple component may not override a final modifier of one of its parts
record R
  parameter Real x;
  parameter Real y;
end R;

model B
  parameter R r(final x = 1, y = 2);
end B;

model RecordValueOverridesFinal
  B b(r = R(3, 4));
end RecordValueOverridesFinal;
