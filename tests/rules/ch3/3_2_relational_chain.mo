// 3.2: relational operators are non-associative (1 < x < 3 is invalid)
model RelationalChain
  Real x = time;
  Boolean b = 1 < x < 3;
end RelationalChain;
