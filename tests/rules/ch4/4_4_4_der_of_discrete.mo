// 4.4.4: it is not allowed to apply der to discrete-time variables
model DerOfDiscrete
  discrete Real d(start = 0, fixed = true);
  Real x(start = 0, fixed = true);
equation
  when time > 0.5 then
    d = 1;
  end when;
  der(x) = der(d);
end DerOfDiscrete;
