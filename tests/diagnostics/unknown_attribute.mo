model UnknownAttribute
  Real x(strat = 1);
equation
  der(x) = -x;
end UnknownAttribute;
