// reinit and terminate in a when-statement of an algorithm section (specification 11.2.7,
// 8.3.6): a bouncing ball whose impacts reinitialise the velocity, written as an algorithm.
// The ball falls from 1 m with g = 9.81 and restitution 0.5; with a tiny step the first
// impact is at t = sqrt(2/9.81) = 0.4515 s and the count of impacts by t = 1 is 2.
// run: method=be step=0.0005 stop=1
// expect: impacts 2
model AlgorithmReinit
  parameter Real e = 0.5;
  Real h(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
  Integer impacts(start = 0);
equation
  der(h) = v;
  der(v) = -9.81;
algorithm
  when h < 0 then
    reinit(v, -e * pre(v));
    impacts := pre(impacts) + 1;
  end when;
end AlgorithmReinit;
