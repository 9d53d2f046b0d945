// 14.6: the first input of a unary operator function must be of the record type
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
  encapsulated operator function 'not'
    import C;
    input Real c;
    output C result;
  algorithm
    result := C(0, 0);
  end 'not';
end C;

model UnaryFirstInputNotRecord
  C a(re = 1, im = 2);
end UnaryFirstInputNotRecord;
