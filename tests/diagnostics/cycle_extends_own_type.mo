// A class that extends a type declared inside itself: looking up `Base` needs the class's
// inherited elements, which need `Base` (this overflowed the stack before). rtc finds the
// type and says what it cannot do with it.
model CycleExtendsOwnType
  extends Base;
  type Base = Real;
end CycleExtendsOwnType;
