// A plate closing on its stop at 4 m/s under a constant force that speeds it up (as the MSL's
// PreLoad: spring plates closing on elasto-gap contacts). Before contact the motion is
// s = 0.0018 - 4*t - 3250*t^2, a polynomial radau reproduces to rounding, and the contact
// closes where s = s0: t = (sqrt(16 + 3.9) - 4)/6500 = 7.0914092e-5 s. The location's secant
// approaches that zero from the old side (the function is concave) and stays there.
model ClosingContact
  parameter Real s0 = 0.0015;
  parameter Real c = 1e6;
  parameter Real m = 0.01;
  Real s(start = 0.0018, fixed = true);
  Real v(start = -4, fixed = true);
  Boolean contact;
equation
  contact = s < s0;
  der(s) = v;
  m * der(v) = -65 + noEvent(if contact then -c * (s - s0) else 0);
  annotation(experiment(StopTime = 0.001, Interval = 0.0001));
end ClosingContact;
