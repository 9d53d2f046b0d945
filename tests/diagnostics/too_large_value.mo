// An array value larger than any model needs: identity(5000) has 25 million elements.
model TooLargeValue
  parameter Real A[5000, 5000] = identity(5000);
  Real x;
equation
  x = A[1, 1];
end TooLargeValue;
