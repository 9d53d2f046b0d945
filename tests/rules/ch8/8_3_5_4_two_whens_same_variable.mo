// 8.3.5.4: two when-equations shall not define the same variable
model TwoWhensSameVariable
  Boolean close;
equation
  when time > 1 then
    close = true;
  end when;
  when time > 2 then
    close = false;
  end when;
end TwoWhensSameVariable;
