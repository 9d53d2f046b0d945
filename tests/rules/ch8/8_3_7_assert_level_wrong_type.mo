// 8.3.7: the level argument of assert must be of type AssertionLevel
model AssertLevelWrongType
equation
  assert(true, "msg", 1);
end AssertLevelWrongType;
