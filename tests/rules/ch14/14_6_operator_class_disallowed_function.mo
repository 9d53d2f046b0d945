// 14.6: an operator class may only contain functions allowed for it ('-' may hold unary and binary ones)
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
  encapsulated operator '-'
    import C;
    function negate
      input C c;
      output C result;
    algorithm
      result := C(-c.re, -c.im);
    end negate;
    function subtract
      input C a;
      input C b;
      output C result;
    algorithm
      result := C(a.re - b.re, a.im - b.im);
    end subtract;
    function subtractScaled
      input C a;
      input C b;
      input Real k;
      output C result;
    algorithm
      result := C(a.re - k*b.re, a.im - k*b.im);
    end subtractScaled;
  end '-';
end C;

model OperatorClassDisallowedFunction
  C a(re = 1, im = 2);
end OperatorClassDisallowedFunction;
