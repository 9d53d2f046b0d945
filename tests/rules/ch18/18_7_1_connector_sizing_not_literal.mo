// 18.7.1: the value of connectorSizing must be a literal false or true
model ConnectorSizingNotLiteral
  parameter Boolean b = true;
  parameter Integer n = 0 annotation(Dialog(connectorSizing = b));
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end ConnectorSizingNotLiteral;
