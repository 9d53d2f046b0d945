// 4.4.2: it is an error if the type of a component is partial in a simulation model
partial model P
  Real x;
end P;
model PartialComponent
  P p;
equation
  p.x = 1;
end PartialComponent;
