// 4.7: all non-partial model and block classes must be locally balanced (here Sub, though the whole is balanced)
model Sub
  Real x;
  Real y;
equation
  x = 1;
end Sub;
model SubmodelLocallyUnbalanced
  Sub s;
equation
  s.y = 2;
end SubmodelLocallyUnbalanced;
