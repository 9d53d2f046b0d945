// Specification 8.6: initial equations that do not give a state its value directly form the
// initial system, solved before the run (damped Newton over the states without `fixed = true`;
// the solution becomes their start values). A lag in steady state, der(y) = 0, gives
// y = k·u = 6, where it stays; an output initialised through an algebraic variable, y2 = x + 1
// = 5, gives x = 4, then x = 4 + t/2: x(1) = 4.5 and y2(1) = 5.5.
// run: method=be step=0.25 stop=1
// expect: y 6
// expect: x 4.5
// expect: y2 5.5
model InitialSystem
  parameter Real k = 2;
  parameter Real T = 0.5;
  parameter Real y2start = 5;
  Real u = 3;
  Real y(start = 0) "first-order lag";
  Real x;
  Real y2 = x + 1;
initial equation
  der(y) = 0;
  y2 = y2start;
equation
  der(y) = (k * u - y) / T;
  der(x) = 0.5;
end InitialSystem;
