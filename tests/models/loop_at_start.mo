model LoopAtStart "an algebraic loop at t = 0 is solved by the initial system"
  Real x(start = 1, fixed = true);
  Real z;
equation
  der(x) = -z;
  z + 0.1*z^3 = x;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end LoopAtStart;
