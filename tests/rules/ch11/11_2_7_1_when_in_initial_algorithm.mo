// 11.2.7.1: a when-statement shall not occur inside an initial algorithm
model WhenInInitialAlgorithm
  parameter Real p(fixed = false);
initial algorithm
  when time > 0.5 then
    p := 1;
  end when;
end WhenInInitialAlgorithm;
