// 18.7: DocumentationClass is only allowed as a class annotation
model DocumentationClassOnComponent
  Real x(start = 1, fixed = true) annotation(DocumentationClass = true);
equation
  der(x) = -x;
end DocumentationClassOnComponent;
