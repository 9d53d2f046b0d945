// 11.2.2.1: no assignment to an entire array subscripted by the implicit iterator inside the loop
model ImplicitRangeWholeArrayAssigned
  Real a[3];
algorithm
  for i loop
    a[i] := i;
    a := {1, 2, 3};
  end for;
end ImplicitRangeWholeArrayAssigned;
