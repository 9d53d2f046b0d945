// 14.3: C(args) with an operator 'constructor' but no matching constructor function is erroneous
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

model ConstructorNoMatch
  C a;
equation
  a = C(true);
end ConstructorNoMatch;
