// `smooth(0, noEvent(…))` of a saturating amplifier (the MSL's IdealizedOpAmpLimited with
// strict = true) in a feedback loop: vout = 2·x, vout = sat(V0·(vin − x)) with V0 = 15000.
// The function is continuous where it saturates, and rtc makes its relations events (the
// branches are defined on both sides): Newton then solves one branch at a time, where with
// the relations evaluated at every iterate its steep linear range sent the iterates from one
// limit to the other and back (residual 30, the distance between the limits). vin ramps
// through the saturation (vout = 15 once vin > 7.5 + 15/V0); at t = 10, x = 7.5 exactly.
model SmoothLimiterEvents
  parameter Real V0 = 15000;
  Real x;
  Real vin;
  Real vout;
equation
  vin = time;
  vout = 2*x;
  vout = smooth(0, noEvent(if V0*(vin - x) > 15 then 15 else if V0*(vin - x) < -15 then -15 else V0*(vin - x)));
end SmoothLimiterEvents;
// run: method=be step=0.5 stop=10
// expect: vout 15
// expect: x 7.5
