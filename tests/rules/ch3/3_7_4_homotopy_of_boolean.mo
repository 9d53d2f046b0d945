// 3.7.4: homotopy: actual and simplified must be subtypes of Real
model HomotopyOfBoolean
  Real x = time;
  Boolean b = x > 0.5;
  Real y = homotopy(b, 0);
end HomotopyOfBoolean;
