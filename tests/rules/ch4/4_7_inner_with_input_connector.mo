// 4.7: an inner or outer component shall not be of a class having top-level public connectors containing inputs
connector RealInput = input Real;
block Sub
  RealInput u;
  output Real y = 2 * u;
end Sub;
model InnerWithInputConnector
  inner Sub s;
equation
  s.u = 1;
end InnerWithInputConnector;
