// 18.6.4: the index of a connection's Text annotation is one of the points of its Line
connector Pin
  Real v;
  flow Real i;
end Pin;
model Load
  Pin p;
equation
  p.i = p.v;
end Load;
model Ground
  Pin p;
equation
  p.v = 0;
end Ground;
model TextIndexOutOfLine
  Load l;
  Ground g;
equation
  connect(l.p, g.p) annotation(Line(points = {{0, 0}, {10, 0}}),
    Text(string = "%first", index = 5, extent = {{0, 0}, {0, 4}}));
end TextIndexOutOfLine;
