// The same declaration in a model and in its base class is one element (specification 7.1.3:
// inherited elements with the same name must be identical), as the MSL's power converters
// declare `parameter Integer m(final min=3) = 3` in the model and in the plug it extends;
// descriptions and annotations may differ.
// run: method=be step=0.25 stop=1
// expect: s 3
model InheritedIdenticalDeclaration
  partial model Base
    parameter Integer m(min = 1) = 3 "phases";
  end Base;
  model A
    parameter Integer m(min = 1) = 3 "number of phases" annotation(Evaluate = true);
    extends Base;
    Real x[m];
  equation
    x = fill(time, m);
  end A;
  A a;
  Real s = sum(a.x);
end InheritedIdenticalDeclaration;
