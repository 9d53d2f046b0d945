// Vector when-conditions (8.3.5, 11.2.7): a one-element array literal in a when-statement (as
// the MSL's FFT block writes `when {sampleTrigger}`), and a Boolean array variable in a
// when-equation (as its radio buttons write `when reset`): the body runs when any element
// becomes true. flags[1] rises at x = 0.5 and flags[2] at 0.75, so m counts 2.
// run: method=be step=0.05 stop=1
// expect: n 2
// expect: m 2
model WhenVectorInAlgorithm
  Real x(start = 0, fixed = true);
  Boolean flags[2](each start = false);
  Integer n(start = 0);
  Integer m(start = 0);
equation
  der(x) = 1;
  when x > 0.5 then
    flags[1] = true;
  end when;
  when x > 0.75 then
    flags[2] = true;
  end when;
  when flags then
    m = pre(m) + 1;
  end when;
algorithm
  when {x > 0.3} then
    n := pre(n) + 1;
  end when;
  when {x > 0.6} then
    n := pre(n) + 1;
  end when;
end WhenVectorInAlgorithm;
