// 4.5.1: a short class definition of a partial class is partial; instantiating it in a simulation model is an error
partial model TwoPin
  Real v;
end TwoPin;
model ShortClassOfPartial
  replaceable model Load = TwoPin;
  Load l;
equation
  l.v = 1;
end ShortClassOfPartial;
