model UnsupportedWhen
  Real h(start = 1);
  Real v(start = 0);
  discrete Real c[2];
equation
  der(h) = v;
  der(v) = -9.81;
  when h < 0 then
    for k in 1:2 loop
      c[k] = k * time;
    end for;
  end when;
end UnsupportedWhen;
