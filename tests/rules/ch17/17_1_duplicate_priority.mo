// 17.1: all transitions leaving one state must have different priorities
model DuplicatePriority
  block S
    output Integer k;
  equation
    k = 1;
  end S;
  S a;
  S b;
  S d;
  Boolean c = sample(true, Clock(0.1));
equation
  initialState(a);
  transition(a, b, c, priority = 1);
  transition(a, d, c, priority = 1);
end DuplicatePriority;
