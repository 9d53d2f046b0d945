// A parameter with `fixed = false` whose initial equation reads a solution that depends on
// it: with up = false x starts at 0, which makes up true, with which x starts at 4, which
// makes up false again. rtc says the parameters do not settle instead of keeping one round.
model ParameterUnsettled
  parameter Boolean up(fixed = false);
  Real x;
equation
  der(x) = 0;
initial equation
  x = if up then 4 else 0;
  up = x < 1;
end ParameterUnsettled;
