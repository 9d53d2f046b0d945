// 4.2: two elements of a class shall not have the same name
model DuplicateComponent
  Real x = 1;
  Real x = 2;
end DuplicateComponent;
