model Opened
  Real x;
equation
  x = 1;
end Closed;
