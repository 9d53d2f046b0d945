model IfBranchesDiffer
  Real x(start = 1);
  Real y;
equation
  der(x) = -x;
  if x > 0.5 then
    y = 1;
  else
  end if;
end IfBranchesDiffer;
