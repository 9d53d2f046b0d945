model SlidingLimiterRadau "SlidingLimiter with a second state in the loop: by Radau IIA at 0.01 s (three tearing variables) the sliding retry does not find the solution, and the run stops"
  function limit
    input Real u;
    input Real y;
    input Real ymax;
    output Real r;
  algorithm
    if u > ymax and y >= ymax then
      r := ymax;
    else
      r := u;
    end if;
  end limit;
  parameter Real k = 10;
  parameter Real g = 1000;
  parameter Real ymax = 1;
  Real y(start = 0, fixed = true);
  Real x(start = 0, fixed = true);
  Real e;
equation
  der(x) = 20*(y - x - x^3);
  e = 2 - 0.5*x;
  der(y) = k*(limit(g*e, y, ymax) - y);
  annotation(experiment(StopTime = 0.1, Interval = 0.01));
end SlidingLimiterRadau;
