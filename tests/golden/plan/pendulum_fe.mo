// args: --method fe --step 0.1
// Forward Euler: every state update is explicit; the model is evaluated once per step.
model PendulumFE
  parameter Real b = 0.02;
  Real x1(start = 0.5, fixed = true);
  Real x2(start = 0.5, fixed = true);
equation
  der(x1) = x2;
  der(x2) = -sin(x1) - b*x2;
end PendulumFE;
