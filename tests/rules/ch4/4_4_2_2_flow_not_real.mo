// 4.4.2.2: primitive elements with flow shall be a subtype of Real (or an additive operator record)
connector C
  Integer v;
  flow Integer i;
end C;
model FlowNotReal
  C c;
equation
  c.v = 1;
end FlowNotReal;
