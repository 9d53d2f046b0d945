// 8.3.5.2: when-equations shall not occur inside initial equation sections
model WhenInInitialEquation
  Real x;
equation
  der(x) = 1;
initial equation
  when time > 1 then
    x = 0;
  end when;
end WhenInInitialEquation;
