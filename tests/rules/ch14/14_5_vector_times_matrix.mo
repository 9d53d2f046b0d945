// 14.5: vector*matrix of operator records is not derived from scalar '*' (erroneous without an array '*' function)
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

model VectorTimesMatrix
  C u[2](re = {1, 3}, im = {2, 4});
  C m[2, 2](re = {{1, 0}, {0, 1}}, im = {{0, 0}, {0, 0}});
  C r[2];
equation
  r = u*m;
end VectorTimesMatrix;
