// 11.2.2: the loop variable of a for-statement shall not be assigned to (rule of 8.3.2.1 applied to statements)
model AssignLoopVariable
  Real x;
algorithm
  x := 0;
  for i in 1:3 loop
    i := 2;
    x := x + i;
  end for;
end AssignLoopVariable;
