// 11.2.7.1: when-statements shall not occur inside while-loops, for-loops or if-statements in algorithms
model WhenInIf
  parameter Boolean b = true;
  Real y;
algorithm
  if b then
    when time > 2 then
      y := 1;
    end when;
  end if;
end WhenInIf;
