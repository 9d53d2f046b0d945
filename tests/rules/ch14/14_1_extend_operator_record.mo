// 14.1: it is not legal to extend from an operator record (except by a short class definition modifying attributes)
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
end C;

operator record C2
  extends C;
end C2;

model ExtendOperatorRecord
  C2 a(re = 1, im = 2);
end ExtendOperatorRecord;
