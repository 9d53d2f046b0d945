// Short class definitions: a type's own modification applies to every element of an array
// of it; a model defined as a modified short class is simulated with its modification.
model ShortClasses
  model Leak
    parameter Real G = 1;
    input Real p;
    Real q;
  equation
    q = G*p;
  end Leak;
  model Leak10 = Leak(G = 10);
  type Pressure = Real(start = 1e5, unit = "Pa");
  Leak10 leaks[2](each p = 2);
  Pressure ps[2](each fixed = true);
equation
  der(ps) = {-ps[1], -ps[2]};
end ShortClasses;
