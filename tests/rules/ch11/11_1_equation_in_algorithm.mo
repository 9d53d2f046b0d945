// 11.1: an equation (=) shall not be used in an algorithm section
model EquationInAlgorithm
  Real x;
algorithm
  x = time;
end EquationInAlgorithm;
