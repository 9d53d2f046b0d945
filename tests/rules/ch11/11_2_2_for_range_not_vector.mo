// 11.2.2: the range expression of a for-statement shall be a vector expression (rule of 8.3.2.1 applied to statements)
model ForRangeNotVector
  Real x;
algorithm
  x := 0;
  for i in 3 loop
    x := x + i;
  end for;
end ForRangeNotVector;
