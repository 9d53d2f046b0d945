// 8.3.5.3: if-equation in a when: branches need the same left-hand sides unless conditions are parameter expressions
model IfInWhenDifferentLhs
  Real x, y;
equation
  when time > 1 then
    if time < 2 then
      x = 1;
      y = 2;
    else
      x = 3;
    end if;
  end when;
end IfInWhenDifferentLhs;
