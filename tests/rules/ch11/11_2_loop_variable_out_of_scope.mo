// 11.2: a name in a statement must be an enclosing for-iterator or be found in the enclosing class (iterator not visible after loop)
model LoopVariableOutOfScope
  Real x;
algorithm
  x := 0;
  for i in 1:3 loop
    x := x + i;
  end for;
  x := x + i;
end LoopVariableOutOfScope;
