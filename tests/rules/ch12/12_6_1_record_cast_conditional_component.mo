// 12.6.1: record cast is an error if the component of M corresponding to a record component is conditional
record R
  Real v;
end R;
model M
  parameter Boolean use = true;
  Real v = 1 if use;
end M;
model RecordCastConditionalComponent
  M m;
  R r = R(m);
end RecordCastConditionalComponent;
