// 16.10: firstTick and interval may not be called in the continuous-time partition
model IntervalContinuousPartition
  Real x;
equation
  x = interval();
end IntervalContinuousPartition;
