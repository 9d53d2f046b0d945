// 11.2.8.2: the terminate-statement shall not be used in functions
function TermFun
  input Real u;
  output Real y;
algorithm
  y := u;
  terminate("stop");
end TermFun;
model TerminateInFunction
  Real x;
equation
  x = TermFun(time);
end TerminateInFunction;
