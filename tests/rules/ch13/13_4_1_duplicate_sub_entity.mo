// 13.4.1: two sub-entities shall not define classes with identical names (B.mo and B/) (run: --lib ch13/13_4_1_duplicate_sub_entity/LibA)
model DuplicateSubEntity
  LibA.B b;
end DuplicateSubEntity;
