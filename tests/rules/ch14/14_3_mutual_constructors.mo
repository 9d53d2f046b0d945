// 14.3: for operator records C and D, C.'constructor'(d) and D.'constructor'(c) shall not both be legal
operator record D
  Real x;
  encapsulated operator 'constructor'
    import C;
    import D;
    function fromReal
      input Real x;
      output D result(x = x);
    algorithm
    end fromReal;
    function fromC
      input C c;
      output D result(x = c.re);
    algorithm
    end fromC;
  end 'constructor';
end D;

operator record C
  Real re;
  Real im;
  encapsulated operator 'constructor'
    import C;
    import D;
    function fromReal
      input Real re;
      input Real im = 0;
      output C result(re = re, im = im);
    algorithm
    end fromReal;
    function fromD
      input D d;
      output C result(re = d.x, im = 0);
    algorithm
    end fromD;
  end 'constructor';
end C;

model MutualConstructors
  C a(re = 1, im = 2);
  D d(x = 3);
end MutualConstructors;
