// Specification 8.6: a parameter with `fixed = false` is computed during initialisation by an
// initial equation. Where that equation gives it from parameters and the start time — the
// MSL's Mean block (`t0 = time`) and filters (coefficients from functions) — it is computed
// with the parameters, `time` being the start time. Starting at 0.5 with f = 2: samples at
// t0 + 1/f = 1.0 and 1.5 before the stop at 1.75, so k = 2; c = {1, 4, 9}; y = c[2] + t0.
// run: method=be step=0.25 stop=1.75
// expect: k 2
// expect: y 4.5
model ParametersAtInitialisation
  function squares
    input Integer n;
    output Real c[n];
  algorithm
    for i in 1:n loop
      c[i] := i * i;
    end for;
  end squares;
  parameter Real f = 2;
  parameter Real t0(fixed = false) "start time";
  parameter Real c[3](each fixed = false);
  discrete Real k(start = 0);
  Real y;
initial equation
  t0 = time;
  c = squares(3);
equation
  when sample(t0 + 1 / f, 1 / f) then
    k = pre(k) + 1;
  end when;
  y = c[2] + t0;
  annotation(experiment(StartTime = 0.5, StopTime = 1.75));
end ParametersAtInitialisation;
