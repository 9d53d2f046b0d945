// 3.8.1: a call's variability includes the variability of used default arguments (e.g. short-class modifiers)
function F
  input Real u;
  input Real k = 1;
  output Real y;
algorithm
  y := u * k;
end F;
model FunctionDefaultVariability
  parameter Real p = 2;
  function G = F(k = p);
  constant Real c = G(1);
end FunctionDefaultVariability;
