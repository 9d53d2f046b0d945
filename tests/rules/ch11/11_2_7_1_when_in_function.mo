// 11.2.7.1: a when-statement shall not be used within a function
function WhenFun
  input Real u;
  output Real y;
algorithm
  y := u;
  when u > 1 then
    y := 2;
  end when;
end WhenFun;
model WhenInFunction
  Real x;
equation
  x = WhenFun(time);
end WhenInFunction;
