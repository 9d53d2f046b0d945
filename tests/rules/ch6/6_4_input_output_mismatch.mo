// 6.4: compatibility: the input/output prefixes must match
block BB
  input Real u;
  output Real y;
equation
  y = u;
end BB;

block BA
  output Real u;
  output Real y;
equation
  y = u;
end BA;

model InputOutputMismatch
  replaceable block B = BA constrainedby BB;
  B b(u = 1);
end InputOutputMismatch;
