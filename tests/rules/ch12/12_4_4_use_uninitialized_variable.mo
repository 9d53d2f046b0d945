// 12.4.4: it is an error to use (or return) an uninitialized variable in a function
function F
  input Real u;
  output Real y;
protected
  Real t;
algorithm
  y := t + u;
end F;
model UseUninitializedVariable
  Real x;
equation
  x = F(time);
end UseUninitializedVariable;
