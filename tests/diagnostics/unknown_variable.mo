model UnknownVariable
  Real x(start = 1);
equation
  der(x) = -x + xx2;
end UnknownVariable;
