model BigValues "Finite values whose sum overflows (the finiteness test must look closer and go on), then a state that overflows (it must be named)"
  parameter Real g = 1e300 "growth rate of z; 0 keeps it finite";
  Real x(start = 1.0e308, fixed = true);
  Real y(start = 1.0e308, fixed = true);
  Real z(start = 1, fixed = true);
equation
  der(x) = -1;
  der(y) = 1;
  der(z) = g * z;
end BigValues;
