// 4.5.1: the type-specifier of an encapsulated short class definition cannot be looked up in the enclosing scope
model EncapsulatedShortClassType
  model Res
    parameter Real R = 1;
  end Res;
  encapsulated model Load = Res(R = 2);
  Load l;
end EncapsulatedShortClassType;
