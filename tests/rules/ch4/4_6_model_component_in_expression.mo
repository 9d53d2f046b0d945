// 4.6: only components of record, type, operator record and connector classes may be used as references in expressions
model Empty
end Empty;
model ModelComponentInExpression
  Empty s;
  Empty t;
equation
  s = t;
end ModelComponentInExpression;
