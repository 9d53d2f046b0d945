// 10.3.5: outerProduct/symmetric/cross/skew require Real (numeric) vector or matrix inputs
model CrossOfBoolean
  Real c[3] = cross({true, false, true}, {0, 1, 0});
end CrossOfBoolean;
