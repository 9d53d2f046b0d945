model FunctionArgumentSize
  function norm2
    input Real v[2];
    output Real n;
  algorithm
    n := sqrt(v[1]^2 + v[2]^2);
  end norm2;
  Real a;
equation
  a = norm2({time, 1, 2});
end FunctionArgumentSize;
