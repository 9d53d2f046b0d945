// 10.3.3: ones() without arguments is not legal
model OnesNoArgs
  Real y[1] = {1} .+ ones();
end OnesNoArgs;
