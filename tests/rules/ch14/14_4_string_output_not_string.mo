// 14.4: 'String' functions shall have one output of type String and a first input of the operator record class
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
  encapsulated operator function 'String'
    import C;
    input C c;
    output Real s;
  algorithm
    s := c.re;
  end 'String';
end C;

model StringOutputNotString
  C a(re = 1, im = 2);
end StringOutputNotString;
