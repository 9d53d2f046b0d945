// 4.4.3: cycles in unexpanded array bindings are illegal even if they vanish after expansion
model UnexpandedArrayCycle
  parameter Integer n = 3;
  parameter Real x[n] = cat(1, {3.4}, x[1:(n-1)]);
end UnexpandedArrayCycle;
