// 10.4.2: cat: k must be an existing dimension (1 <= k <= ndims)
model CatDimOutOfRange
  Real v[3] = cat(2, {1}, {2, 3});
end CatDimOutOfRange;
