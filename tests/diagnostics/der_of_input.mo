model DerOfInput
  input Real u;
  Real x;
equation
  x = der(u);
end DerOfInput;
