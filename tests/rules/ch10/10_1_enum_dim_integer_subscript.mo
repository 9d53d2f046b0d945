// 10.1: an array with Boolean/enumeration dimension must be subscripted with values of that type
type E = enumeration(a, b);
model EnumDimIntegerSubscript
  Real w[E];
  Real y = w[1];
equation
  w[E.a] = 1;
  w[E.b] = 2;
end EnumDimIntegerSubscript;
