// 18.6.7: variables changed by user input (interaction) must be parameters, discrete-time variables or states
model InteractionAlgebraicVariable
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x;
  y = 2 * x;
  annotation(Icon(graphics = {Rectangle(extent = {{-100, -100}, {100, 100}})},
    interaction = {OnMouseMoveXSetReal(xVariable = y, minValue = 0, maxValue = 1)}));
end InteractionAlgebraicVariable;
