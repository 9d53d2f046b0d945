// 10.3.3: fill needs two or more arguments (fill(s) is not legal)
model FillOneArg
  Real y[1] = {1} .+ fill(1.0);
end FillOneArg;
