// 4.6: an operator function may only be placed directly in an operator record
record Cx
  Real re;
  encapsulated operator function '-'
    input Cx a;
    output Cx b;
  algorithm
    b := Cx(re = -a.re);
  end '-';
end Cx;
model OperatorFunctionOutsideOperatorRecord
  Cx c(re = 1);
end OperatorFunctionOutsideOperatorRecord;
