model Expandable
  expandable connector Bus
  end Bus;
  Bus bus;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end Expandable;
