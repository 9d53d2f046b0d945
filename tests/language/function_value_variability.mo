// A function of discrete-time arguments is discrete-time (3.8.3), so its Boolean value may
// define a Boolean outside when-clauses: of a parameter, of a discrete variable, and a
// relation of a function's Real value (which generates events). The same function of the
// continuous x would be refused (tests/rules ch3 3_8_multiple_assignment_variability).
// run: method=be step=0.25 stop=1
// expect: n1 1
// expect: n2 1
// expect: n3 1
function Positive
  input Real u;
  output Boolean a;
algorithm
  a := u > 0;
end Positive;
function Ramp
  input Real u;
  output Real a;
algorithm
  a := if u > 0 then u else 0;
end Ramp;
model FunctionValueVariability
  parameter Real p = 1;
  Real x = time;
  discrete Real d(start = 0, fixed = true);
  Boolean b1 = Positive(p);
  Boolean b2 = Ramp(x) > 0.5;
  Boolean b3 = Positive(d);
  Real n1 = if b1 then 1 else 0;
  Real n2 = if b2 then 1 else 0;
  Real n3 = if b3 then 1 else 0;
equation
  when sample(0, 0.25) then
    d = x;
  end when;
end FunctionValueVariability;
