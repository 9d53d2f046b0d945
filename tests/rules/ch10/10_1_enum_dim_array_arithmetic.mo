// 10.1: an array with Boolean/enumeration dimension may only be subscripted or used in bindings x1 = x2
type E = enumeration(a, b);
model EnumDimArrayArithmetic
  Real w[E];
  Real z[E] = 2 * w;
equation
  w[E.a] = 1;
  w[E.b] = 2;
end EnumDimArrayArithmetic;
