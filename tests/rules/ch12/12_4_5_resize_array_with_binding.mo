// 12.4.5: only a non-input colon-sized array without binding may be resized by assignment
function F
  input Real u;
  output Real y[:] = {u, u};
algorithm
  y := {u, u, u};
end F;
model ResizeArrayWithBinding
  Real x[3];
equation
  x = F(time);
end ResizeArrayWithBinding;
