// A room heated by an on/off thermostat with hysteresis: the heater switches off when the
// temperature rises above Tmax and on again when it falls below Tmin (two state events; the
// heater state is a discrete Boolean assigned in when-equations). Switching times are checked
// against an independent scipy computation (tests/references/thermostat.py).
model Thermostat "Room with an on/off heater and a hysteresis thermostat"
  parameter Real C(unit = "J/K") = 1e5 "heat capacity of the room";
  parameter Real G(unit = "W/K") = 50 "conductance to the outside";
  parameter Real P(unit = "W") = 3000 "heater power";
  parameter Real Ta(unit = "degC") = 5 "outside temperature";
  parameter Real Tmin(unit = "degC") = 19 "switch on below";
  parameter Real Tmax(unit = "degC") = 21 "switch off above";
  Real T(unit = "degC", start = 15, fixed = true) "room temperature";
  Boolean on(start = true) "heater on";
equation
  C*der(T) = (if on then P else 0) - G*(T - Ta);
  when T > Tmax then
    on = false;
  elsewhen T < Tmin then
    on = true;
  end when;
  annotation(experiment(StartTime = 0, StopTime = 20000, Interval = 1));
end Thermostat;
