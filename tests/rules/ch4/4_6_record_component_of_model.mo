// 4.6: components directly declared in a record may only be of specialized class record or type
model Sub
  parameter Real p = 1;
end Sub;
record R
  Real x;
  Sub s;
end R;
model RecordComponentOfModel
  R r(x = 1);
end RecordComponentOfModel;
