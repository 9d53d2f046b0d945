// 7.2.6: an element made final by a final modification cannot be modified again
model TF
  parameter Real b = 1;
end TF;

model PI
  TF tf(final b = 2);
end PI;

model ModifyFinalModifier
  PI c2(tf(b = 3));
end ModifyFinalModifier;
