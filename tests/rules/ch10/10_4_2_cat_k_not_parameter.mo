// 10.4.2: cat: k shall be a parameter expression of Integer type
model CatKNotParameter
  Integer k = if time > 2 then 1 else 1;
  Real v[3] = cat(k, {1}, {2, 3});
end CatKNotParameter;
