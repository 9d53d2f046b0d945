// 10.3.4: binary min(x, y) / max(x, y) take scalar arguments
model MinBinaryVector
  Real m = min({1, 2}, 3);
end MinBinaryVector;
