model RecordConstructor
  record R
    Real a;
    Real b;
  end R;
  parameter Real z = R(1, 2);
  Real x(start = 1, fixed = true);
equation
  der(x) = -z*x;
end RecordConstructor;
