// 14.5: matrix*vector or matrix*matrix with zero inner dimension is an error if the element class has no '0' operator
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
    input C a;
    input C b;
    output C result;
  algorithm
    result := C(a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re);
  end '*';
end C;

model ZeroInnerDimensionWithoutZero
  C m[2, 0];
  C v[0];
  C r[2];
equation
  r = m*v;
end ZeroInnerDimensionWithoutZero;
