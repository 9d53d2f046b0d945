// 10.3.4: sum/product/min/max of an array: element type restrictions of the reduction table apply (e.g. no sum of Boolean)
model SumArrayOfBoolean
  Integer k = sum({true, false});
end SumArrayOfBoolean;
