// 4.7: a modifier on a model component may not remove a default binding equation with break
model Sub
  Real y = 1;
end Sub;
model ModifierBreaksBinding
  Sub s(y = break);
equation
  s.y = 2;
end ModifierBreaksBinding;
