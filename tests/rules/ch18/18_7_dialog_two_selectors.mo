// 18.7: a component shall have at most one of showStartAttribute=true, colorSelector=true, load/save/directorySelector, connectorSizing=true
model DialogTwoSelectors
  parameter Integer c[3] = {0, 0, 255} annotation(Dialog(showStartAttribute = true, colorSelector = true));
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end DialogTwoSelectors;
