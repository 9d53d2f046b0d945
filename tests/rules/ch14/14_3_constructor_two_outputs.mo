// 14.3: 'constructor' functions shall declare exactly one output component
operator record C
  Real re;
  Real im;
  encapsulated operator function '+'
    import C;
    input C a;
    input C b;
    output C result;
  algorithm
    result := C(a.re + b.re, a.im + b.im);
  end '+';
  encapsulated operator 'constructor'
    import C;
    function fromReal
      input Real re;
      input Real im = 0;
      output C result(re = re, im = im);
      output Real extra = 0;
    algorithm
    end fromReal;
  end 'constructor';
end C;

model ConstructorTwoOutputs
  C a(re = 1, im = 2);
end ConstructorTwoOutputs;
