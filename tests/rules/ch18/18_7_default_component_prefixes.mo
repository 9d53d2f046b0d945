// 18.7: defaultComponentPrefixes may only contain inner, outer, replaceable, constant, parameter, discrete
model DefaultComponentPrefixes
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(defaultComponentPrefixes = "flow");
end DefaultComponentPrefixes;
