// A model that contains itself through a renaming import (this overflowed the stack before).
model CycleImport
  import A = CycleImport;
  A a;
  Real x = 1;
end CycleImport;
