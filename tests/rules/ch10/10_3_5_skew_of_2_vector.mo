// 10.3.5: skew(x) requires a 3-vector
model SkewOf2Vector
  Real S[3, 3] = skew({1, 2});
end SkewOf2Vector;
