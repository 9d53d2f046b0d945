// 13.4.3: the within-clause of a sub-entity shall designate the enclosing entity's class (run: --lib ch13/13_4_3_wrong_within/LibA)
model WrongWithin
  LibA.B b;
end WrongWithin;
