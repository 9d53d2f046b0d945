// 4.6: an operator may only be placed directly in an operator record
record Cx
  Real re;
  encapsulated operator '-'
    function negate
      input Cx a;
      output Cx b;
    algorithm
      b := Cx(re = -a.re);
    end negate;
  end '-';
end Cx;
model OperatorOutsideOperatorRecord
  Cx c(re = 1);
end OperatorOutsideOperatorRecord;
