model Recs
  record Point
    Real x;
    Real y;
  end Point;
  function swap
    input Point a;
    output Point b;
  algorithm
    b.x := a.y;
    b.y := a.x;
  end swap;
  parameter Point p0 = Point(1, y = 2);
  Real t(start = 0, fixed = true);
  Point p = Point(t, y = 2 * t);
  Point q;
equation
  der(t) = 1;
  q = swap(p0);
end Recs;
