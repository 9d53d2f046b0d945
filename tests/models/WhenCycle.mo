model WhenCycle
  Real x(start = 0, fixed = true);
  discrete Real a(start = 0);
  discrete Real b(start = 0);
equation
  der(x) = 1;
  when x > 0.1 then
    a = b + 1;
    b = a;
  end when;
end WhenCycle;
