model RecordArithmetic
  record Point
    Real x;
    Real y;
  end Point;
  Point p = Point(time, 1);
  Point q;
equation
  q = p * 2;
end RecordArithmetic;
