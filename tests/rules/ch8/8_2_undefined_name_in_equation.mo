// 8.2: names in an equation must be found by lookup in the enclosing class
model UndefinedNameInEquation
  Real x;
equation
  x = y;
end UndefinedNameInEquation;
