// 14.6: inputs after the first of a unary operator function must have default values
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
    input C c;
    input Real k;
    output C result;
  algorithm
    result := C(k*c.im, k*c.re);
  end 'not';
end C;

model UnaryLaterInputNoDefault
  C a(re = 1, im = 2);
end UnaryLaterInputNoDefault;
