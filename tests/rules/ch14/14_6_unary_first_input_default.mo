// 14.6: the first input of a unary operator function shall not have a default value
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
    input C c = C(0, 0);
    output C result;
  algorithm
    result := C(c.im, c.re);
  end 'not';
end C;

model UnaryFirstInputDefault
  C a(re = 1, im = 2);
end UnaryFirstInputDefault;
