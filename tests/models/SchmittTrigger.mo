// A non-inverting Schmitt trigger: a saturating amplifier with positive feedback through R2.
// Its limiter is continuous (smooth(0, ...)); its linear range is unstable, so the output
// jumps from one limit to the other where the input leaves the hysteresis band.
model SchmittTrigger
  parameter Real V0 = 15000 "open-loop gain";
  parameter Real Vs = 15 "supply (output limits +-Vs)";
  parameter Real R1 = 1000;
  parameter Real R2 = 15000;
  parameter Real f = 10;
  Real vin = 5*cos(2*3.141592653589793*f*time);
  Real vp(start = 1);
  output Real vout;
equation
  (vin - vp)/R1 = (vp - vout)/R2;
  vout = smooth(0, noEvent(if V0*vp > Vs then Vs else if V0*vp < -Vs then -Vs else V0*vp));
  annotation(experiment(StopTime = 0.25, Interval = 0.001));
end SchmittTrigger;
