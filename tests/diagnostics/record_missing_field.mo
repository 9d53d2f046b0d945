model RecordMissingField
  record Point
    Real x;
    Real y;
  end Point;
  Point p = Point(x = time);
end RecordMissingField;
