// 7.2.7: break is not an expression and cannot be used as a sub-expression of a modifier
model A
  parameter Real d(start = 1) = 2;
end A;

model BreakAsSubexpression
  A a(d = 1 + break);
end BreakAsSubexpression;
