// 4.7: in a non-partial model, non-connector inputs of model or block components must have binding equations
block B
  input Real u;
  output Real y = 2 * u;
end B;
model InputWithoutBinding
  B b;
end InputWithoutBinding;
