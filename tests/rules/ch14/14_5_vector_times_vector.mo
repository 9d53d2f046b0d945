// 14.5: vector*vector of operator records is not derived from scalar '*' (erroneous without an array '*' function)
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

model VectorTimesVector
  C u[2](re = {1, 3}, im = {2, 4});
  C v[2](re = {5, 7}, im = {6, 8});
  C s;
equation
  s = u*v;
end VectorTimesVector;
