// 11.2.2.1: a subscript into an array of an expandable connector cannot be used to deduce an implicit range
expandable connector Bus
  Real s[3];
end Bus;
model ImplicitRangeExpandable
  Bus bus;
  Real y;
algorithm
  y := 0;
  for i loop
    y := y + bus.s[i];
  end for;
end ImplicitRangeExpandable;
