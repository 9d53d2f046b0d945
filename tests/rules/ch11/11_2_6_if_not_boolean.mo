// 11.2.6: the condition of an if/elseif-clause in a statement must be a scalar Boolean expression
model IfNotBoolean
  Real x;
  Integer n = 1;
algorithm
  if n then
    x := 1;
  else
    x := 2;
  end if;
end IfNotBoolean;
