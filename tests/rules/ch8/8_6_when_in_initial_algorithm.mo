// 8.6: when-clauses are not allowed in initial algorithm sections
model WhenInInitialAlgorithm
  Real x;
equation
  der(x) = 1;
initial algorithm
  when time > 1 then
    x := 0;
  end when;
end WhenInInitialAlgorithm;
