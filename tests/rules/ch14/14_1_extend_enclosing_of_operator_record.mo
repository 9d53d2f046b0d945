// 14.1: it is not legal to extend a class enclosing an operator record (it would copy the operator record; 14.7 example)
model A
  operator record C
    Real re;
    Real im;
    encapsulated operator 'constructor'
      import A.C;
      function fromReal
        input Real re;
        input Real im = 0;
        output C result(re = re, im = im);
      algorithm
      end fromReal;
    end 'constructor';
    encapsulated operator function '+'
      import A.C;
      input C a;
      input C b;
      output C result;
    algorithm
      result := C(a.re + b.re, a.im + b.im);
    end '+';
  end C;
  C z(re = 1, im = 2);
end A;

model ExtendEnclosingOfOperatorRecord
  extends A;
end ExtendEnclosingOfOperatorRecord;
