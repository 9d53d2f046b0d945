model Redeclare
  model A
    replaceable parameter Real k = 1;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -k*x;
  end A;
  extends A(redeclare parameter Real k = 2);
end Redeclare;
