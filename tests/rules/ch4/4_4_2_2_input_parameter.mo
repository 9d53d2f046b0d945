// 4.4.2.2: an input variable must not also be parameter or constant
model InputParameter
  parameter input Real u = 1;
end InputParameter;
