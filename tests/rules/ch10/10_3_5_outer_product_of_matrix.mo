// 10.3.5: outerProduct(x, y) requires vectors
model OuterProductOfMatrix
  Real M[2, 2] = outerProduct([1; 2], {3, 4});
end OuterProductOfMatrix;
