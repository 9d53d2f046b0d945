// 8.3.2.1: the range expression of a for-equation shall be a parameter expression
model ForRangeNotParameter
  Integer n = 3;
  Real x[3];
equation
  for i in 1:n loop
    x[i] = i;
  end for;
end ForRangeNotParameter;
