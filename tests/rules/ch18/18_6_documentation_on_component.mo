// 18.6: Icon, Diagram and Documentation annotations are only allowed directly in classes (not on components or connections)
model DocumentationOnComponent
  Real x(start = 1, fixed = true) annotation(Documentation(info = "<html>state</html>"));
equation
  der(x) = -x;
end DocumentationOnComponent;
