// A size typed one zero too many, many times over: refused at once instead of minutes and
// gigabytes later (the fuzzer's 1000000-segment line took 24 GB).
model TooLargeArray
  parameter Integer n = 1000000;
  Real x[n](each start = 0, each fixed = true);
equation
  der(x) = -x;
end TooLargeArray;
