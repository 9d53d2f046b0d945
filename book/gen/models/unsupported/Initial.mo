model Initial
  Real x(start = 0, fixed = true);
  discrete Real k(start = 0);
equation
  der(x) = 1;
  when initial() or x > 1 then
    k = pre(k) + 1;
  end when;
end Initial;
