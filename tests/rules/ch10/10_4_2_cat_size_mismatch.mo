// 10.4.2: cat: sizes must agree in all dimensions except k
model CatSizeMismatch
  Real m[2, 2] = cat(1, {{1, 2}}, {{3}});
end CatSizeMismatch;
