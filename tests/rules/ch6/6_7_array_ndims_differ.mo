// 6.7: type-compatible expressions: array operands of if/array expressions must have the same number of dimensions
model ArrayNdimsDiffer
  parameter Boolean b = true;
  Real x[2] = if b then {1, 2} else {{3, 4}};
end ArrayNdimsDiffer;
