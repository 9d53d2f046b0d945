// 10.6.2: a .+ b / a .- b require numeric (or String for .+) operands
model ElementwiseAddBoolean
  Real y[2] = {1, 2} .+ {true, false};
end ElementwiseAddBoolean;
