// 8.3.5.2: when-equations cannot be nested
model NestedWhen
  Real y;
equation
  when time > 1 then
    when time > 2 then
      y = 1;
    end when;
  end when;
end NestedWhen;
