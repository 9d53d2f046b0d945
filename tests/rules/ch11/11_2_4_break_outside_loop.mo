// 11.2.4: break may only be used inside a while- or for-loop of an algorithm section
model BreakOutsideLoop
  Real x;
algorithm
  x := time;
  break;
end BreakOutsideLoop;
