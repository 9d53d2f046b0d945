// 7.4: a deselection break D must match at least one element of the base class
model Sub
  Real z = 1;
end Sub;

model B
  Sub s;
  Real y = 2;
end B;

model DeselectNoMatch
  extends B(break t);
end DeselectNoMatch;
