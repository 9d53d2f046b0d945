// 3.8.4: no assignment to discrete-time variables under an if/while/for controlled by a non-discrete-time expression
model DiscreteAssignUnderContinuousIf
  Real x = time;
  Integer i;
algorithm
  if noEvent(x > 0.5) then
    i := 1;
  else
    i := 2;
  end if;
end DiscreteAssignUnderContinuousIf;
