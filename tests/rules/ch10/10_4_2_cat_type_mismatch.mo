// 10.4.2: cat: arrays must be type compatible
model CatTypeMismatch
  Real v[3] = cat(1, {true}, {2, 3});
end CatTypeMismatch;
