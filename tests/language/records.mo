// Records (specification 12.6, 4.8.4): the implicit record constructor with positional and
// named arguments and field defaults, bindings of whole records (a parameter record and a
// variable record), equations between records, nested records, and records as function
// inputs, outputs and locals whose fields are assigned one by one.
// run: method=be step=0.25 stop=1
// expect: s.pos.x 1
// expect: s.pos.y 2
// expect: s.mass 3
// expect: y 2.5
// expect: q.x 2
// expect: q.y 1
// expect: n 5
// expect: y2 4
model Records
  record Params
    Real gain = 1;
    Real offset = 0;
  end Params;
  record Point
    Real x;
    Real y;
  end Point;
  record Params2 "a record extending another with a new default"
    extends Params(gain = 4);
  end Params2;
  record Body
    Point pos;
    Real mass = 1;
  end Body;
  function apply
    input Params p;
    input Real u;
    output Real y;
  algorithm
    y := p.gain * u + p.offset;
  end apply;
  function swap
    input Point a;
    output Point b;
  algorithm
    b.x := a.y;
    b.y := a.x;
  end swap;
  function norm2
    input Point a;
    output Real n;
  protected
    Point d = Point(a.x, a.y);
  algorithm
    n := d.x ^ 2 + d.y ^ 2;
  end norm2;
  parameter Params p = Params(2, offset = 0.5);
  parameter Params2 p2 = Params2();
  Real y2 = p2.gain * time;
  Real x(start = 0, fixed = true);
  Body s = Body(Point(x, 2 * x), mass = 3);
  Point q;
  Real y;
  Real n;
equation
  der(x) = 1;
  y = apply(p, x);
  q = swap(Point(x, 2 * x));
  n = norm2(q);
end Records;
