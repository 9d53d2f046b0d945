// 4.4.2: a type used as array dimension must be an enumeration type or Boolean
model DimensionTypeNotEnum
  Real x[Integer];
end DimensionTypeNotEnum;
