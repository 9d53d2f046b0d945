// A class that extends a type declared inside itself: looking up `Base` needs the class's
// inherited elements, which need `Base` (this overflowed the stack before). rtc finds the
// type and says why the model cannot extend it (a model extends no type, specification 7.1.3).
model CycleExtendsOwnType
  extends Base;
  type Base = Real;
end CycleExtendsOwnType;
