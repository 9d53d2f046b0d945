// 14.3: 'constructor' shall only contain functions whose single output is of the operator record class
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
    function fromBoolean
      input Boolean b;
      output Real result;
    algorithm
      result := 1;
    end fromBoolean;
  end 'constructor';
end C;

model ConstructorOutputNotRecord
  C a(re = 1, im = 2);
end ConstructorOutputNotRecord;
