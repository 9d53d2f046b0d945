// 3.7.4: special-purpose operators accept named arguments only with the specified names
model SpecialOperatorWrongName
  Real x = time;
  Real y = homotopy(actual = x, simple = 0);
end SpecialOperatorWrongName;
