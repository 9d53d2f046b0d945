model SlidingLimiterLoop "SlidingLimiter with a second state in the loop, which it reads through a cube: torn to two variables"
  function limit "a function's if generates no events"
    input Real u "demand";
    input Real y "the lag's output";
    input Real ymax "limit";
    output Real r;
  algorithm
    if u > ymax and y >= ymax then
      r := ymax;
    else
      r := u;
    end if;
  end limit;
  parameter Real k = 10 "the lag's rate (1/s)";
  parameter Real g = 1000 "gain";
  parameter Real ymax = 1 "limit";
  Real y(start = 0, fixed = true) "the lag's output";
  Real x(start = 0, fixed = true) "a state the error reads";
  Real e "error";
equation
  der(x) = 20*(y^3 - x - x^3);
  e = 2 - 0.5*x;
  der(y) = k*(limit(g*e, y, ymax) - y);
  annotation(experiment(StopTime = 0.1, Interval = 0.01));
end SlidingLimiterLoop;
