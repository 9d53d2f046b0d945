// 15.1: the stream prefix can only be used in a connector declaration
model StreamOutsideConnector
  stream Real h;
equation
  h = 1;
end StreamOutsideConnector;
