// 10.1: a colon dimension size can only come from the binding or attributes, not from other equations
model ColonSizeFromEquation
  Real x[:];
equation
  x = {1, 2};
end ColonSizeFromEquation;
