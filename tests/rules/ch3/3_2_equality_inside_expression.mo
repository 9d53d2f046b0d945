// 3.2: = and := are not expression operators (only in equations / assignments)
model EqualityInsideExpression
  Integer i = 1;
  Boolean b = (i = 1);
end EqualityInsideExpression;
