// 3.8.4: no equations between discrete-time expressions under an if controlled by a non-discrete-time expression
model DiscreteEquationUnderContinuousIf
  Real x = time;
  Integer i;
equation
  if noEvent(x > 0.5) then
    i = 1;
  else
    i = 2;
  end if;
end DiscreteEquationUnderContinuousIf;
