// Specification 14.3-14.6: the functions of one operator record's operator differ in what
// calls they match: constructors from one Real (an Integer converts) and from a Real and a
// Boolean; '*' of two records and of a record and a Real (and a Real and a record); '-' unary
// and binary; 'String' with an optional second input. And C has a constructor from a D
// while D has none from a C (14.3). The model runs on its own variable; the operator records
// are declared, checked and unused.
// der(x) = 1 from 0 with backward Euler: x = t exactly; at t = 1 x = 1.
// run: method=be step=0.5 stop=1
// expect: x 1
model Top
  package Ops "operator records declared, checked and unused"
    operator record D
      Real v;
    end D;
    operator record C
      Real re;
      Real im;
      encapsulated operator 'constructor'
        import Top.Ops.C;
        import Top.Ops.D;
        function fromReal
          input Real re;
          output C result(re = re, im = 0);
        algorithm
        end fromReal;
        function fromPolar
          input Real r;
          input Boolean polar;
          output C result(re = r, im = 0);
        algorithm
        end fromPolar;
        function fromD
          input D d;
          output C result(re = d.v, im = 0);
        algorithm
        end fromD;
      end 'constructor';
      encapsulated operator '*'
        import Top.Ops.C;
        function product
          input C a;
          input C b;
          output C result(re = a.re * b.re - a.im * b.im, im = a.re * b.im + a.im * b.re);
        algorithm
        end product;
        function scaled
          input C a;
          input Real k;
          output C result(re = k * a.re, im = k * a.im);
        algorithm
        end scaled;
        function scaledLeft
          input Real k;
          input C a;
          output C result(re = k * a.re, im = k * a.im);
        algorithm
        end scaledLeft;
      end '*';
      encapsulated operator '-'
        import Top.Ops.C;
        function negate
          input C a;
          output C result(re = -a.re, im = -a.im);
        algorithm
        end negate;
        function difference
          input C a;
          input C b;
          output C result(re = a.re - b.re, im = a.im - b.im);
        algorithm
        end difference;
      end '-';
      encapsulated operator 'String'
        import Top.Ops.C;
        function toString
          input C c;
          input Integer digits = 6;
          output String s = String(c.re, significantDigits = digits);
        algorithm
        end toString;
      end 'String';
    end C;
  end Ops;
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
end Top;
