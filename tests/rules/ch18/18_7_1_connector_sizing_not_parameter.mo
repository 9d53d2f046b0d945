// 18.7.1: with connectorSizing = true the variable must be declared with the parameter prefix
model ConnectorSizingNotParameter
  Integer n = 0 annotation(Dialog(connectorSizing = true));
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end ConnectorSizingNotParameter;
