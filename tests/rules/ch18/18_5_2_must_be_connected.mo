// 18.5.2: mustBeConnected makes it an error if the connector is not connected from the outside
connector Pin
  Real v;
  flow Real i;
end Pin;
model Load
  Pin p annotation(mustBeConnected = "p must be connected");
equation
  p.i = p.v;
end Load;
model MustBeConnected
  Load l;
end MustBeConnected;
