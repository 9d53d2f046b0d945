// A when-condition comparing a piecewise-constant function of time with pre() of the variable
// it sets (8.3.5; the MSL's Pulse and Trapezoid sources count periods this way): the event
// fires at every period, at the end of the step in which the function jumps, and its function
// reads the variable (pre(v) is v between events). Period 0.3, step 0.01: counts at 0.3, 0.6,
// 0.9, the last at t = 0.9.
// run: method=be step=0.01 stop=1
// expect: count 3
// expect: T 0.9
model WhenSampledCounter
  Integer count(start = 0);
  discrete Real T(start = 0);
equation
  when floor(time / 0.3) > pre(count) then
    count = pre(count) + 1;
    T = time;
  end when;
end WhenSampledCounter;
