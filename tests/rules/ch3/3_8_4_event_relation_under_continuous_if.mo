// 3.8.4: no event-generating Real relations/functions under an if controlled by a non-discrete-time expression
model EventRelationUnderContinuousIf
  Real x = time;
  Real y;
equation
  y = if noEvent(x > 0.5) then (if x > 0.7 then 1 else 0) else 0;
end EventRelationUnderContinuousIf;
