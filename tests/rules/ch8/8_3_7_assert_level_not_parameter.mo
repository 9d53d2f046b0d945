// 8.3.7: the level argument of assert must be a parameter expression
model AssertLevelNotParameter
  AssertionLevel lv = AssertionLevel.warning;
equation
  assert(true, "msg", lv);
end AssertLevelNotParameter;
