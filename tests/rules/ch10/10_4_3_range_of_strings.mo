// 10.4.3: range j:k only for Real, Integer, Boolean or enumeration operands
model RangeOfStrings
  Integer v[2] = "a" : "b";
end RangeOfStrings;
