// when-statements in an algorithm section (specification 11.2.7): a sampled counter and a
// latch on a relation, with elsewhen, pre() and the variables' event-held values read after
// the statement.
// run: method=be step=0.125 stop=1
// expect: count 5
// expect: latched 1
// expect: twice 10
model AlgorithmWhen
  Real x(start = 0, fixed = true);
  Integer count(start = 0);
  Integer latched(start = 0);
  Integer twice;
equation
  der(x) = 1;
algorithm
  when sample(0, 0.25) then
    count := pre(count) + 1;
  end when;
  when x > 0.5 then
    latched := 1;
  elsewhen x < 0.1 then
    latched := 0;
  end when;
  twice := 2 * count;
end AlgorithmWhen;
