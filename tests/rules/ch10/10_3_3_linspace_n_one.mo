// 10.3.3: linspace(x1, x2, n) requires n >= 2
model LinspaceNOne
  Real v[1] = linspace(0, 1, 1);
end LinspaceNOne;
