// 12.1.2: return may only be used in an algorithm section of a function
model ReturnInModel
  Real x;
algorithm
  x := time;
  return;
end ReturnInModel;
