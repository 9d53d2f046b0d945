// 14.6: it is an error if several unary operator functions match (no potential call may do so)
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
    function negate2
      input C c;
      output C result;
    algorithm
      result := C(-c.re, -c.im);
    end negate2;
  end '-';
end C;

model UnaryMultipleMatches
  C a(re = 1, im = 2);
end UnaryMultipleMatches;
