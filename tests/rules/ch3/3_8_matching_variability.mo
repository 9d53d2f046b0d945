// 3.8: an equation can only solve for v if the solution is at most as variable as v (perfect matching)
model MatchingVariability
  Real x;
  Integer i;
equation
  x = time;
  i = x;
end MatchingVariability;
