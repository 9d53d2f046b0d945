// 2.3.3: no element may be named Real, Integer, Boolean or String
model ElementNamedReal
  Real Boolean = 1;
end ElementNamedReal;
