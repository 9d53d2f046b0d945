// 8.3.5.3: a left-hand side in a when-clause must be a component reference
model WhenLhsNotComponentRef
  Real x;
equation
  when time > 1 then
    2*x = 1;
  end when;
end WhenLhsNotComponentRef;
