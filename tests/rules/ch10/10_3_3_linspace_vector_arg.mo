// 10.3.3: linspace: x1 and x2 shall be numeric scalar expressions
model LinspaceVectorArg
  Real v[3] = linspace({0, 0}, 1, 3);
end LinspaceVectorArg;
