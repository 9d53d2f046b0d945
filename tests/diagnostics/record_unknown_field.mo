model RecordUnknownField
  record Point
    Real x;
    Real y;
  end Point;
  function f
    input Point p;
    output Real r;
  algorithm
    r := p.x + p.z;
  end f;
  Real a;
equation
  a = f(Point(time, 1));
end RecordUnknownField;
