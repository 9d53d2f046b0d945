// 12.2: a function cannot have both an algorithm section and an external function interface
pure function F
  input Real u;
  output Real y;
algorithm
  y := u;
external "C" y = ext(u);
end F;
model AlgorithmAndExternal
  Real x;
equation
  x = F(time);
end AlgorithmAndExternal;
