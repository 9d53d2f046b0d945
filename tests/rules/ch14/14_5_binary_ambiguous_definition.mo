// 14.5: no potential binary call may match several functions of the operator (Integer and Real count as the same type)
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
  encapsulated operator '*'
    import C;
    function scaleReal
      input C a;
      input Real k;
      output C result;
    algorithm
      result := C(k*a.re, k*a.im);
    end scaleReal;
    function scaleInteger
      input C a;
      input Integer k;
      output C result;
    algorithm
      result := C(k*a.re, k*a.im);
    end scaleInteger;
  end '*';
end C;

model BinaryAmbiguousDefinition
  C a(re = 1, im = 2);
end BinaryAmbiguousDefinition;
