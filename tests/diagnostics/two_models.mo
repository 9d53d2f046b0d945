model First
  Real x = 1;
end First;

model Second
  Real y = 2;
end Second;
