// 17.1: ticksInState() can only be used in state machines
model TicksinstateOutside
  Integer n;
equation
  n = ticksInState();
end TicksinstateOutside;
