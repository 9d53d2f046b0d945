model PrescribedPosition "A mass moved along a sine, driving a second mass through a spring (index 3)"
  import Rtc.Mechanics.Translational.*;
  Rtc.Blocks.Sine sine(amplitude = 0.1, f = 0.5);
  Position position;
  Mass mass1(m = 0.5);
  Spring spring(c = 40);
  Mass mass2(m = 2, s(start = 0, fixed = true), v(start = 0, fixed = true));
equation
  connect(sine.y, position.s_ref);
  connect(position.flange, mass1.flange_a);
  connect(mass1.flange_b, spring.flange_a);
  connect(spring.flange_b, mass2.flange_a);
end PrescribedPosition;
