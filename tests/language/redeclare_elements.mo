// Specification 7.3 and 7.3.1: redeclarations written as elements of a class body replace
// what the class inherits. A component (`redeclare Real x = 2 * time;`; new dimensions for a
// `p[:]`, `redeclare parameter Real p[2]`), a class (`redeclare model L = N;`) and a class
// extension (`redeclare model extends M(k = 3) … end M;`: the replaced M's contents, its
// modification, then the new contents) — also where the base class instantiates them (A's
// `M m;` and `L l;`). And 4.5.1: a short class definition's modifier reads a parameter of the
// class that declares it (`model R2 = R(k = g)`, g = 4 from outside). At t = 1: b.x = 2,
// b.s = 4 + 5, b.m.y = 3·1, b.m.w = 2·3, b.l.y = 5 and b.l.w = 3 (N's), gg.r.y = 4·1.
// run: method=fe step=0.25 stop=1
// expect: b.x 2
// expect: b.s 9
// expect: b.m.y 3
// expect: b.m.w 6
// expect: b.l.y 5
// expect: b.l.w 3
// expect: gg.r.y 4
model RedeclareElements
  model A
    replaceable Real x = 1;
    replaceable parameter Real p[:] = {1, 2, 3};
    Real s = sum(p);
    replaceable model M
      parameter Real k = 1;
      Real y = k * time;
    end M;
    M m;
    replaceable model L
      Real y = 1;
    end L;
    L l;
  end A;
  model N
    Real y = 5;
    Real w = 3;
  end N;
  model B
    extends A;
    redeclare Real x = 2 * time;
    redeclare parameter Real p[2] = {4, 5};
    redeclare model extends M(k = 3)
      Real w = 2 * y;
    end M;
    redeclare model L = N;
  end B;
  model R
    parameter Real k = 1;
    Real y = k * time;
  end R;
  model G
    parameter Real g = 3;
    model R2 = R(k = g);
    R2 r;
  end G;
  B b;
  G gg(g = 4);
end RedeclareElements;
