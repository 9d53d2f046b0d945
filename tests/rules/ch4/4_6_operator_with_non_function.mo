// 4.6: an operator may only contain declarations of functions
operator record Cx
  Real re;
  encapsulated operator '-'
    constant Real k = 1;
    function negate
      import Cx;
      input Cx a;
      output Cx b;
    algorithm
      b := Cx(re = -a.re);
    end negate;
  end '-';
end Cx;
model OperatorWithNonFunction
  Cx c(re = 1);
end OperatorWithNonFunction;
