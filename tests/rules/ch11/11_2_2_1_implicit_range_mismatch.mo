// 11.2.2.1: an implicit iterator subscripting several arrays requires identical ranges for all of them
model ImplicitRangeMismatch
  parameter Real b[4] = {1, 2, 3, 4};
  Real a[3];
algorithm
  for i loop
    a[i] := b[i];
  end for;
end ImplicitRangeMismatch;
