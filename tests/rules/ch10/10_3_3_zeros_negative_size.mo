// 10.3.3: zeros/ones/fill dimension arguments must be >= 0
model ZerosNegativeSize
  Real z[0] = zeros(-1);
end ZerosNegativeSize;
