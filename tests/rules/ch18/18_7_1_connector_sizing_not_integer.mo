// 18.7.1: with connectorSizing = true the variable must be a subtype of a scalar Integer
model ConnectorSizingNotInteger
  parameter Real n = 0 annotation(Dialog(connectorSizing = true));
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end ConnectorSizingNotInteger;
