// A modifier that refers to another element of the component it modifies (specification 7.2:
// modifiers are evaluated in the enclosing scope, where the component is visible), as the
// MSL's examples write `vIn(startTime = -(vIn.rising + vIn.width/2))`.
// run: method=be step=0.25 stop=1
// expect: y 2
model ModifierSelfReference
  block Pulse
    parameter Real startTime = 0;
    parameter Real width = 1;
    output Real y;
  equation
    y = if time < startTime then 0 else width;
  end Pulse;
  Pulse p(width = 2, startTime = -(p.width / 2));
  Real y = p.y;
end ModifierSelfReference;
