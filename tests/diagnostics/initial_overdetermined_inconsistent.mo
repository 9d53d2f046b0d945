model InitialOverdeterminedInconsistent
  Real i1(start = 5);
  Real i2(start = 5);
  Real i3;
initial equation
  i1 + i2 = 0;
  i1 - i2 = 0;
  i3 = 1;
equation
  der(i1) = 1 - i1;
  der(i2) = 2 - i2;
  i3 = -i1 - i2;
end InitialOverdeterminedInconsistent;
