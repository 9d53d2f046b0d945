// External C functions (specification 12.9): x' = -sat(x) with sat written in C
// (tests/models/external/funcs.c), and hyp(a, b) = sqrt(a^2 + b^2). With backward Euler the
// implicit step solves x = x_k - h*sat(x), whose Jacobian comes from a central difference of
// the external function (it has no symbolic derivative). Exact discrete solution: x falls by h
// per step while above 1, then x_{k+1} = x_k/(1 + h).
model ExternalSat
  pure function sat
    input Real u;
    output Real y;
    external "C" y = rtc_test_sat(u);
  end sat;
  pure function hyp
    input Real a;
    input Real b;
    output Real c;
    external "C" c = rtc_test_hyp(a, b);
  end hyp;
  Real x(start = 2, fixed = true);
  Real r;
equation
  der(x) = -sat(x);
  r = hyp(x, 0);
  annotation(experiment(StartTime = 0, StopTime = 2, Interval = 1e-3));
end ExternalSat;
