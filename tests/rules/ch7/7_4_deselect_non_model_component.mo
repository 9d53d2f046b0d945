// 7.4: a component deselected with break must be a model, block or connector
model Sub
  Real z = 1;
end Sub;

model B
  Real x = 1;
  Real y = 2;
end B;

model DeselectNonModelComponent
  extends B(break x);
end DeselectNonModelComponent;
