// 7.1.3: an operator may only extend an operator or a class
package Base
  function fromReal
    input Real re;
    output Cplx c;
  algorithm
    c.re := re;
    c.im := 0;
  end fromReal;
end Base;

operator record Cplx
  Real re;
  Real im;
  encapsulated operator 'constructor'
    extends .Base;
  end 'constructor';
end Cplx;

model OperatorExtendsPackage
  Cplx c = Cplx(1);
end OperatorExtendsPackage;
