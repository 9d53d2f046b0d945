// 10.4.2.1: [] (concatenation without arguments) is not defined
model EmptyBrackets
  Real m[0, 0] = [];
end EmptyBrackets;
