// If-equations in when-equations (specification 8.3.5.3): every branch assigns the same
// variables (one value per variable, `if c1 then v1 elseif … else vn`), a condition known when
// compiling selects its branch, and a branch without a reinit leaves the state alone.
// Samples at t = 1/8, 3/8, 5/8, 7/8 count n = 1 … 4 and set y = 10, 20, -1, then y + 0.5;
// at t = 1/2 (y = 20 > 15) x is re-initialised to 0, so x(1) = 1/2; all binary fractions.
// run: method=be step=0.125 stop=1
// expect: n 4
// expect: y -0.5
// expect: level 2
// expect: x 0.5
model WhenIfEquations
  parameter Boolean fast = true;
  Integer n(start = 0, fixed = true);
  discrete Real y(start = 0, fixed = true);
  discrete Real level(start = 0, fixed = true);
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when sample(0.125, 0.25) then
    n = pre(n) + 1;
    if pre(n) < 2 then
      y = 10 * (pre(n) + 1);
    elseif pre(n) == 2 then
      y = -1;
    else
      y = pre(y) + 0.5;
    end if;
    if fast then
      level = 2;
    else
      level = 1;
    end if;
  end when;
  when time >= 0.5 then
    if y > 15 then
      reinit(x, 0);
    end if;
  end when;
end WhenIfEquations;
