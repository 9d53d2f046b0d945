// 12.4.6: only transitively non-replaceable function classes may be called vectorized
function G
  input Real u;
  output Real y;
algorithm
  y := 2*u;
end G;
model VectorizeReplaceableFunction
  replaceable function H = G;
  Real x[2];
equation
  x = H({time, time});
end VectorizeReplaceableFunction;
