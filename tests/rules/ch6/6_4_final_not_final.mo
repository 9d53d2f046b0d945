// 6.4: compatibility: if an element of B is final, the element of A must also be final
model MB
  final parameter Real p = 1;
end MB;

model MA
  parameter Real p = 1;
end MA;

model FinalNotFinal
  replaceable model M = MA constrainedby MB;
  M m;
end FinalNotFinal;
