// 11.2.1: the assigned expression must not have higher variability than the assigned component
model AssignHigherVariability
  Integer i;
algorithm
  i := noEvent(integer(time));
end AssignHigherVariability;
