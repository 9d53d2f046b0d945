// 8.3.5.2: when-equations inside if/for only if the controlling expressions are parameter expressions
model WhenInNonparamIf
  Real x;
equation
  if time < 1 then
    when time > 0.5 then
      x = 1;
    end when;
  else
    when time > 2 then
      x = 2;
    end when;
  end if;
end WhenInNonparamIf;
