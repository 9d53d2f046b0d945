model StringVar
  String s;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end StringVar;
