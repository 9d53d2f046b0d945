// 18.7: the DocumentationClass annotation has the form DocumentationClass = true
model DocumentationClassFalse
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(DocumentationClass = 3);
end DocumentationClassFalse;
