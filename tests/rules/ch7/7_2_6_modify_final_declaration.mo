// 7.2.6: an element declared final cannot be modified
model TF
  final parameter Real b = 1;
end TF;

model ModifyFinalDeclaration
  TF tf(b = 2);
end ModifyFinalDeclaration;
