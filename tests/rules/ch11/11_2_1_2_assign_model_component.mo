// 11.2.1.2: only components of type/record/operator record/connector classes may be assigned in algorithms
model Sub
  Real v;
end Sub;
model AssignModelComponent
  Sub a, b;
equation
  b.v = time;
algorithm
  a := b;
end AssignModelComponent;
