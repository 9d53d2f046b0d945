// 7.1.3: an operator function may only extend an (operator) function or a class
model Neg
  input Cplx a;
  output Cplx b;
end Neg;

operator record Cplx
  Real re;
  Real im;
  encapsulated operator function '-'
    extends .Neg;
  algorithm
    b := Cplx(-a.re, -a.im);
  end '-';
end Cplx;

model OperatorFunctionExtendsModel
  Cplx c = -Cplx(1, 2);
end OperatorFunctionExtendsModel;
