// A Real assigned to an Integer in a when-equation.
model TypeWhenAssign
  Integer count(start = 0, fixed = true);
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when x > 1 then
    count = pre(count) + 0.5;
  end when;
end TypeWhenAssign;
