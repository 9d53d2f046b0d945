package Pkg
  model A
    Real x(start = 1, fixed = true);
  equation
    der(x) = -x;
  end A;
  model B
    extends A;
    Real y;
  equation
    y = 2*x;
  end B;
end Pkg;
