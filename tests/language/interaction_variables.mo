// Specification 18.6.7: an interaction changes a parameter, a discrete-time variable or a
// state: here a layer's interaction sets the parameter k, a graphic primitive's sets the
// Boolean on (assigned in a when-clause) and the state x, a component's icon its own
// parameter. Its Text names the parameter k (18.6.5.5) besides %name, %class and %%. (The
// invalid cases are tests/rules/ch18/18_6_7_interaction_algebraic_variable.mo and
// 18_6_5_5_text_unknown_parameter.mo.)
// der(x) = k from 0 with backward Euler: x = 2 t exactly; at t = 1 x = 2, on = true, g.y = 6.
// run: method=be step=0.5 stop=1
// expect: x 2
// expect: on 1
// expect: g.y 6
model Top
  block Gain
    parameter Real k = 3;
    input Real u;
    output Real y = k * u;
    annotation(Icon(graphics = {Rectangle(extent = {{-100, -100}, {100, 100}},
      interaction = {OnMouseDownEditReal(k)}),
      Text(extent = {{-100, 100}, {100, 140}}, textString = "%name: %class, k = %k (%{k}), 100 %%")}));
  end Gain;
  parameter Real k = 2;
  Real x(start = 0, fixed = true);
  Boolean on(start = false, fixed = true);
  Gain g(u = x);
equation
  der(x) = k;
  when x > 0.5 then
    on = true;
  end when;
  annotation(Icon(graphics = {Rectangle(extent = {{-100, -100}, {100, 100}},
      interaction = {OnMouseDownSetBoolean(on, not on), OnMouseMoveXSetReal(xVariable = x,
        minValue = 0, maxValue = 1)})},
    interaction = {OnMouseDownEditReal(variable = k)}));
end Top;
