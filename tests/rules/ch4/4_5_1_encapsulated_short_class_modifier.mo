// 4.5.1: modifiers of an encapsulated short class definition cannot be looked up in the enclosing scope
model Res
  parameter Real R = 1;
end Res;
model EncapsulatedShortClassModifier
  constant Real R = 3;
  encapsulated model LoadR = .Res(R = R);
  LoadR l;
end EncapsulatedShortClassModifier;
