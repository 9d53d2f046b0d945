// 8.3.2.1: the range expression of a for-equation shall be a vector expression
model ForRangeNotVector
  Real x;
equation
  for i in 1 loop
    x = i;
  end for;
end ForRangeNotVector;
