// 11.2.7.1: a when-statement cannot be nested inside another when-statement
model NestedWhen
  Real y;
algorithm
  when time > 1 then
    when time > 2 then
      y := 1;
    end when;
  end when;
end NestedWhen;
