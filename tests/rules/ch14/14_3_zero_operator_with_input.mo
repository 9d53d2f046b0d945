// 14.3: operator '0' shall contain one function with zero inputs and one output of the record class
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
  encapsulated operator function '+'
    import C;
    input C a;
    input C b;
    output C result;
  algorithm
    result := C(a.re + b.re, a.im + b.im);
  end '+';
  encapsulated operator function '0'
    import C;
    input Real x = 0;
    output C result;
  algorithm
    result := C(0, 0);
  end '0';
end C;

model ZeroOperatorWithInput
  C a(re = 1, im = 2);
end ZeroOperatorWithInput;
