// 8.3.5.3: when/elsewhen branches must have the same set of left-hand side component references
model WhenBranchesDifferentLhs
  Real x, y;
equation
  when time > 1 then
    x = 1;
    y = 2;
  elsewhen time > 2 then
    x = 3;
  end when;
end WhenBranchesDifferentLhs;
