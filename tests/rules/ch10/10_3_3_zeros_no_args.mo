// 10.3.3: zeros() without arguments is not legal
model ZerosNoArgs
  Real y[1] = {1} .+ zeros();
end ZerosNoArgs;
