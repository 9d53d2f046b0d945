// 9.2: flow variables of operator record type require the operator '0' to be defined in that record
operator record Cx
  Real re;
  Real im;
  encapsulated operator '+'
    import Cx;
    function add
      input Cx a;
      input Cx b;
      output Cx c;
    algorithm
      c := Cx(a.re + b.re, a.im + b.im);
    end add;
  end '+';
  encapsulated operator '-'
    import Cx;
    function neg
      input Cx a;
      output Cx c;
    algorithm
      c := Cx(-a.re, -a.im);
    end neg;
    function sub
      input Cx a;
      input Cx b;
      output Cx c;
    algorithm
      c := Cx(a.re - b.re, a.im - b.im);
    end sub;
  end '-';

end Cx;
connector CP
  Cx v;
  flow Cx i;
end CP;
model A
  CP c;
equation
  c.v = Cx(1, 0);
end A;
model B
  CP c;
equation
  c.i = c.v;
end B;
model OperatorRecordFlowNoZero
  A a;
  B b;
equation
  connect(a.c, b.c);
end OperatorRecordFlowNoZero;
