// 4.5.2: a component may not be combined with an extends from a simple type (Real)
connector IllegalConnector
  extends Real;
  parameter Real y = 2;
end IllegalConnector;
model ExtendsSimpleTypePlusComponent
  IllegalConnector c;
equation
  c = 1;
end ExtendsSimpleTypePlusComponent;
