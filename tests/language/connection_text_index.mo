// Connections drawn with a Line and a Text whose index designates one of the Line's points
// (specification 18.6.4: 1, 2, ... from the start, -1, -2, ... from the end). A source of
// 2 V across a 4 Ohm load: i = 0.5 A.
// run: method=be step=0.5 stop=1
// expect: i 0.5
model ConnectionTextIndex
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Source
    Pin p;
    Pin n;
  equation
    p.v - n.v = 2;
    p.i + n.i = 0;
  end Source;
  model Load
    Pin p;
    Pin n;
  equation
    p.v - n.v = 4*p.i;
    p.i + n.i = 0;
  end Load;
  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
  Source s;
  Load l;
  Ground g;
  Real i = l.p.i;
equation
  connect(s.p, l.p) annotation(Line(points = {{0, 0}, {10, 0}, {10, 10}}),
    Text(string = "%first", index = -1, extent = {{0, 0}, {0, 4}}));
  connect(s.n, l.n) annotation(Line(points = {{0, -5}, {10, -5}}),
    Text(string = "%second", index = 2, extent = {{0, 0}, {0, 4}}));
  connect(s.n, g.p) annotation(Line(points = {{0, -5}, {0, -10}}));
end ConnectionTextIndex;
