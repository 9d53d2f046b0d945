// 14.5: a binary operator call is an error if several functions of A.op union B.op match
operator record D
  Real x;
  encapsulated operator function '+'
    import C;
    import D;
    input C a;
    input D b;
    output C result;
  algorithm
    result := C(re = a.re + b.x, im = a.im);
  end '+';
end D;

operator record C
  Real re;
  Real im;
  encapsulated operator '+'
    import C;
    import D;
    function addD
      input C a;
      input D b;
      output C result;
    algorithm
      result := C(re = a.re + 2*b.x, im = a.im);
    end addD;
    function add
      input C a;
      input C b;
      output C result;
    algorithm
      result := C(re = a.re + b.re, im = a.im + b.im);
    end add;
  end '+';
end C;

model BinaryMultipleMatches
  C a(re = 1, im = 2);
  D d(x = 3);
  C b;
equation
  b = a + d;
end BinaryMultipleMatches;
