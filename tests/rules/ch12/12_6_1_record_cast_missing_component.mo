// 12.6.1: casting to record R requires a public component of same name and type in M for each R component without default
record R
  Real v;
  Real w;
end R;
model M
  Real v = 1;
end M;
model RecordCastMissingComponent
  M m;
  R r = R(m);
end RecordCastMissingComponent;
