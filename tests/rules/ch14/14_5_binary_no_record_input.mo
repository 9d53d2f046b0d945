// 14.5: a binary operator function needs at least two inputs, at least one of the operator record class
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
    input Real a;
    input Real b;
    output C result;
  algorithm
    result := C(2*b, 0);
  end '*';
end C;

model BinaryNoRecordInput
  C a(re = 1, im = 2);
end BinaryNoRecordInput;
