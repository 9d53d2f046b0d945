// 14.5: inputs after the first two of a binary operator function must have default values
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
  encapsulated operator function '*'
    import C;
    input C a;
    input Real k;
    input Real s;
    output C result;
  algorithm
    result := C(s*k*a.re, s*k*a.im);
  end '*';
end C;

model BinaryThirdInputNoDefault
  C a(re = 1, im = 2);
end BinaryThirdInputNoDefault;
