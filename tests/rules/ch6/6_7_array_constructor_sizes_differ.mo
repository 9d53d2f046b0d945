// 6.7: type-compatible expressions: in an array expression {A, B} the sizes of A and B must be equal
model ArrayConstructorSizesDiffer
  Integer n = size({{1, 2}, {3, 4, 5}}, 1);
end ArrayConstructorSizesDiffer;
