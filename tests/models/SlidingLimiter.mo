model SlidingLimiter "a lag whose input a function limits on the lag's own state, in a feedback loop (the MSL's OpAmpDetailed gain stage): the limit switches without events, and the lag slides along it"
  function limit "as OpAmpDetailed's FCNq_sum_limit: a function's if generates no events"
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
  Real e "error";
equation
  e = 2 - 0.5*y;
  der(y) = k*(limit(g*e, y, ymax) - y);
  annotation(experiment(StopTime = 0.1, Interval = 0.01));
end SlidingLimiter;
