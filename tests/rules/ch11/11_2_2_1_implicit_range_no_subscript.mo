// 11.2.2.1: an iterator without range must appear as a subscript of some array expression to deduce its range
model ImplicitRangeNoSubscript
  Real x;
algorithm
  x := 0;
  for i loop
    x := x + i;
  end for;
end ImplicitRangeNoSubscript;
