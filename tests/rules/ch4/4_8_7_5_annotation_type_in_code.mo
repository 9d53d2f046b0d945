// 4.8.7.5: graphical annotation types cannot be referenced in ordinary Modelica code
model AnnotationTypeInCode
  parameter Smooth s = Smooth.None;
end AnnotationTypeInCode;
