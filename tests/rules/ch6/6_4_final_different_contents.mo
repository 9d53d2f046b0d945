// 6.4: compatibility: a final element of A must have the same semantic contents as in B
model MB
  final parameter Real p = 1;
end MB;

model MA
  final parameter Real p = 2;
end MA;

model FinalDifferentContents
  replaceable model M = MA constrainedby MB;
  M m;
end FinalDifferentContents;
