// 4.4.2.2: when input/output is applied to a structured component, no element may have input/output/flow
connector Out
  output Real y;
end Out;
connector Outer
  input Out c;
end Outer;
model InputOnStructuredWithInput
  Outer o;
equation
  o.c.y = 1;
end InputOnStructuredWithInput;
