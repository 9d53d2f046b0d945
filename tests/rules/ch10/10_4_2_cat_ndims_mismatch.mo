// 10.4.2: cat: arrays must have the same number of dimensions
model CatNdimsMismatch
  Integer n = size(cat(1, {{1}}, {2, 3}), 1);
end CatNdimsMismatch;
