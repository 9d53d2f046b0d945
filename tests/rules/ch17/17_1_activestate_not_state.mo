// 17.1: it is an error if the argument of activeState is not a state of a state machine
model ActivestateNotState
  block S
    output Integer k;
  equation
    k = 1;
  end S;
  S a;
  Boolean b;
equation
  b = activeState(a);
end ActivestateNotState;
