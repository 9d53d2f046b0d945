// 8.3.5.3: subscripts of a left-hand side in a when-clause must be parameter expressions
model WhenLhsIndexNotParameter
  Integer k = 1;
  Real x[2];
equation
  when time > 1 then
    x[k] = 1;
    x[3 - k] = 2;
  end when;
end WhenLhsIndexNotParameter;
