// 17.1: exactly one instance in each state machine must be marked initial with initialState
model NoInitialState
  block S
    output Integer k;
  equation
    k = 1;
  end S;
  S a;
  S b;
  Boolean c = sample(true, Clock(0.1));
equation
  transition(a, b, c);
  transition(b, a, c);
end NoInitialState;
