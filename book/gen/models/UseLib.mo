model UseLib
  MyLib.Lag lag(T = 2);
equation
  lag.u = 1;
end UseLib;
