// 14.4: no potential String(c) call may match several 'String' functions
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
  encapsulated operator 'String'
    import C;
    function toString
      input C c;
      output String s;
    algorithm
      s := String(c.re);
    end toString;
    function toString2
      input C c;
      output String s;
    algorithm
      s := String(c.im);
    end toString2;
  end 'String';
end C;

model StringAmbiguous
  C a(re = 1, im = 2);
end StringAmbiguous;
