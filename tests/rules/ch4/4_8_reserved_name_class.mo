// 4.8: the names Real, Integer, Boolean and String have keyword-like restrictions (not usable as class names)
model ReservedNameClass
  type Boolean = Real;
  Boolean b = 1.5;
end ReservedNameClass;
