// 7.2.6: all elements of a final class are final: an instance of it cannot modify them
model TF
  parameter Real a = 1;
  parameter Real b = 1;
end TF;

model ModifyElementOfFinalClass
  final model MyTF = TF(b = 2);
  MyTF tf2(a = 3);
end ModifyElementOfFinalClass;
