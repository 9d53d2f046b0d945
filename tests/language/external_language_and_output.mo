// The external language may name a C standard (specification 12.9: "C..." — "C99" is C), and
// the left-hand side of an explicit external call is an output of the function (12.9.2);
// reductions over iterators with the built-in names (10.3.4.1). The valid twins of the rules
// that refuse "Java", an input on the left, and a user function as a reduction.
// run: method=fe step=0.25 stop=1
// expect: y 0.8414709848078965
// expect: s 14
pure function CSin
  input Real x;
  output Real y;
external "C99" y = sin(x);
end CSin;
model ExternalLanguageAndOutput
  Real y = CSin(time);
  Real s = sum(i^2 for i in 1:3);
end ExternalLanguageAndOutput;
