// 4.8: the names Real, Integer, Boolean and String have keyword-like restrictions (not usable as component names)
model ReservedNameComponent
  Real Integer = 1;
end ReservedNameComponent;
