// 14.1: every function of an operator class shall return exactly one output
operator record C
  Real re;
  Real im;
  encapsulated operator 'constructor'
    import C;
    function fromReal
      input Real re;
      input Real im = 0;
      output C result(re = re, im = im);
    algorithm
    end fromReal;
  end 'constructor';
  encapsulated operator function '*'
    import C;
    input C a;
    input C b;
    output C result;
    output Real extra;
  algorithm
    result := C(a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re);
    extra := 0;
  end '*';
end C;

model OperatorFunctionTwoOutputs
  C a(re = 1, im = 2);
end OperatorFunctionTwoOutputs;
