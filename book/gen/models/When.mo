model When "a when-equation with an if-equation inside: not yet"
  Real T(start = 20, fixed = true);
  Real q(start = 0, fixed = true);
equation
  der(T) = q - 0.1*(T - 10);
  der(q) = -q;
  when T < 19 then
    if q < 1 then
      reinit(q, 5);
    end if;
  elsewhen T > 21 then
    reinit(q, 0);
  end when;
end When;
