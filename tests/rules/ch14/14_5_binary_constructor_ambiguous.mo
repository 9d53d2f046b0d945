// 14.5: it is an error if converting an operand by operator-record constructors gives more than one match
operator record D
  Real x;
  encapsulated operator 'constructor'
    import D;
    function fromReal
      input Real x;
      output D result(x = x);
    algorithm
    end fromReal;
  end 'constructor';
end D;

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
  encapsulated operator '+'
    import C;
    import D;
    function add
      input C a;
      input C b;
      output C result;
    algorithm
      result := C(a.re + b.re, a.im + b.im);
    end add;
    function addD
      input C a;
      input D b;
      output C result;
    algorithm
      result := C(a.re + b.x, a.im);
    end addD;
  end '+';
end C;

model BinaryConstructorAmbiguous
  C a(re = 1, im = 2);
  C b;
equation
  b = a + 2;
end BinaryConstructorAmbiguous;
