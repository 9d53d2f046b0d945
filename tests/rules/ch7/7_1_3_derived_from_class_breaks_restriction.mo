// 7.1.3: a specialized class derived from class must still fulfil its own restrictions (record from class with equation)
class C
  Real x;
equation
  x = 1;
end C;

record R
  extends C;
end R;

model DerivedFromClassBreaksRestriction
  R r;
end DerivedFromClassBreaksRestriction;
