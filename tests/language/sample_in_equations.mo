// Specification 3.7.5: sample(start, interval) in an expression is true at the sample instants
// only (like the MSL's SampleTrigger, `y = sample(startTime, period)`); a when-condition on it
// fires at every instant, and so does one on an edge of it. Samples at 0.1, 0.35, 0.6, 0.85
// before the stop at 1: n = 4, m = 4; trig is false again at the stop time.
// run: method=fe step=0.1 stop=1
// expect: n 4
// expect: m 4
// expect: trig 0
model SampleInEquations
  Boolean trig;
  discrete Real n(start = 0, fixed = true);
  discrete Real m(start = 0, fixed = true);
equation
  trig = sample(0.1, 0.25);
  when trig then
    n = pre(n) + 1;
  end when;
  when edge(trig) then
    m = pre(m) + 1;
  end when;
end SampleInEquations;
