// 4.4.2.2: variables declared with stream shall be a subtype of Real
connector C
  Real p;
  flow Real m;
  stream Integer h;
end C;
model StreamNotReal
  C c;
equation
  c.p = 1;
  c.h = 1;
end StreamNotReal;
