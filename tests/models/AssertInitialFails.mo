model AssertInitialFails "x starts below the bound its when-initial assertion checks"
  Real x(start = 0.2, fixed = true);
equation
  der(x) = -x;
  when initial() then
    assert(x >= 0.5, "x must start at 0.5 or above");
  end when;
end AssertInitialFails;
