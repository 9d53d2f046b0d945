// 14.3: no potential constructor call may match several 'constructor' functions
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
    algorithm
    end fromReal;
    function fromReal2
      input Real x;
      output C result(re = x, im = 0);
    algorithm
    end fromReal2;
  end 'constructor';
end C;

model ConstructorAmbiguous
  C a(re = 1, im = 2);
end ConstructorAmbiguous;
