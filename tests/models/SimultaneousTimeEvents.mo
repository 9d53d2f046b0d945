model SimultaneousTimeEvents "time events due at one time, and several in one step"
  // Three switches closing at the same time (a three-phase contactor), two relations of time
  // in one step of 0.1 s, and two samples whose ticks coincide at 0.5 and 1.
  parameter Real Ta = 0.5;
  parameter Real Tb = 0.5;
  parameter Real Tc = 0.5;
  parameter Real T1 = 0.52;
  parameter Real T2 = 0.55;
  Boolean on[3] = {time >= Ta, time >= Tb, time >= Tc};
  Boolean a = time >= T1;
  Boolean b = time >= T2;
  Integer fast(start = 0, fixed = true) "ticks of sample(0, 0.1)";
  Integer slow(start = 0, fixed = true) "ticks of sample(0, 0.25)";
  Real x(start = 0, fixed = true) "3*(t - 0.5) from 0.5";
  Real y(start = 0, fixed = true) "(t - 0.52) + (t - 0.55) from there";
equation
  der(x) = (if on[1] then 1 else 0) + (if on[2] then 1 else 0) + (if on[3] then 1 else 0);
  der(y) = (if a then 1 else 0) + (if b then 1 else 0);
  when sample(0, 0.1) then
    fast = pre(fast) + 1;
  end when;
  when sample(0, 0.25) then
    slow = pre(slow) + 1;
  end when;
  annotation(experiment(StopTime = 1));
end SimultaneousTimeEvents;
