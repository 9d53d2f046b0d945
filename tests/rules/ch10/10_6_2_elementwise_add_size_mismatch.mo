// 10.6.2: a .+ b / a .- b require equal sizes or a scalar operand
model ElementwiseAddSizeMismatch
  Real y[2] = {1, 2} .+ {1, 2, 3};
end ElementwiseAddSizeMismatch;
