// 18.7.1: with connectorSizing = true the variable must have a literal default value of zero
model ConnectorSizingNonzeroDefault
  parameter Integer n = 1 annotation(Dialog(connectorSizing = true));
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end ConnectorSizingNonzeroDefault;
