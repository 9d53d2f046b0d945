// A tank drained through an orifice and filled by an on/off pump with hysteresis: the pump
// starts when the level falls below hlow and stops above hhigh (one when/elsewhen chain, with
// the initial decision in `when initial()`). A second when-equation counts the starts on
// `edge(pump)` and a third adds up the running time on `change(pump)`: they are not state
// events themselves but fire in the event iteration of the instant where `pump` changed.
// After maxStarts starts the run ends (`terminate`).
model TankPump "Tank with an on/off pump: elsewhen, edge, change, initial(), terminate"
  parameter Real A(unit = "m2") = 2 "tank cross-section";
  parameter Real qp(unit = "m3/s") = 0.05 "pump flow";
  parameter Real k(unit = "m2.5/s") = 0.02 "orifice coefficient";
  parameter Real hlow(unit = "m") = 1 "pump on below";
  parameter Real hhigh(unit = "m") = 2 "pump off above";
  parameter Integer maxStarts = 5 "stop after this many starts";
  Real h(unit = "m", start = 1.5, fixed = true) "level";
  Boolean pump(start = false) "pump running";
  discrete Integer starts(start = 0) "pump starts";
  discrete Real tOn(unit = "s", start = 0) "time of the last start";
  discrete Real onTime(unit = "s", start = 0) "total running time of finished runs";
  discrete Real duty(start = 0) "running time per start";
equation
  A*der(h) = (if pump then qp else 0) - k*sqrt(max(h, 0));
  when initial() then
    pump = h < hlow;
  elsewhen h < hlow then
    pump = true;
  elsewhen h > hhigh then
    pump = false;
  end when;
  when edge(pump) then
    starts = pre(starts) + 1;
    tOn = time;
  end when;
  when change(pump) and not pump then
    duty = onTime/max(pre(starts), 1);
    onTime = pre(onTime) + time - tOn;
  end when;
  when starts > maxStarts then
    terminate("the pump started more than maxStarts times");
  end when;
  annotation(experiment(StartTime = 0, StopTime = 2000, Interval = 0.01));
end TankPump;
