// 4.2: component name identical to its type specifier (R R; R.x = 0) is not correct
record R
  Real x;
end R;
model ComponentNamedLikeType
  R R;
equation
  R.x = 0;
end ComponentNamedLikeType;
