// 10.3.5: cross(x, y) requires 3-vectors
model CrossOf2Vectors
  Real c[3] = cross({1, 0}, {0, 1, 0});
end CrossOf2Vectors;
