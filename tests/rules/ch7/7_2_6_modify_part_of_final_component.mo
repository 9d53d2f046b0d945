// 7.2.6: all elements of a final component are final and cannot be modified
model TF
  parameter Real b = 1;
end TF;

model PI
  final TF tf;
end PI;

model ModifyPartOfFinalComponent
  PI c(tf(b = 2));
end ModifyPartOfFinalComponent;
