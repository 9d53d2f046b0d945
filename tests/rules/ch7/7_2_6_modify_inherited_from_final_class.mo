// 7.2.6: elements inherited from a final class stay final in a derived class (TFX tfx2(a = ...))
model TF
  parameter Real a = 1;
  parameter Real b = 1;
end TF;

model ModifyInheritedFromFinalClass
  final model MyTF = TF(b = 2);
  model TFX
    extends MyTF;
    parameter Real foo = 1;
  end TFX;
  TFX tfx2(a = 3);
end ModifyInheritedFromFinalClass;
