model Redeclare
  package P
    constant Real k = 1;
  end P;
  model A
    replaceable package Q = P;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -Q.k*x;
  end A;
  package P2
    constant Real k = 2;
  end P2;
  A a(redeclare package Q = P2);
end Redeclare;
