within Some.Library;
// Every production of the Modelica 3.6 grammar (Appendix B) at least once.
encapsulated package Tour "a tour of the grammar" + " with concatenated description"
  import Modelica.Units.SI;
  import Mech = Modelica.Mechanics;
  import Modelica.Math.*;
  import Modelica.Constants.{pi, e};
  type Angle = Real(final quantity = "Angle", unit = "rad", displayUnit = "deg");
  type Vector3 = input Real[3](each unit = "m");
  type Color = enumeration(red "the red one", green, blue) "colours";
  type Open = enumeration(:);
  type DerType = der(Modelica.Blocks.Interfaces.RealInput, x, y);
  operator record Complex "complex number"
    Real re;
    Real im;
    encapsulated operator '+'
      function add
        input Complex a;
        input Complex b;
        output Complex c;
      algorithm
        c := Complex(a.re + b.re, a.im + b.im);
      end add;
    end '+';
  end Complex;
  expandable connector Bus
  end Bus;
  pure function f "pure function"
    input Real x;
    input Real y = 2 "default";
    output Real z;
    output Real w;
  protected
    Real tmp;
  algorithm
    tmp := x;
    (z, w) := g(x, y);
    (, w) := g(x, y);
    while tmp > 0 loop
      tmp := tmp - 1;
      if tmp < 1 then
        break;
      elseif tmp < 2 then
        return;
      else
        tmp := tmp;
      end if;
    end while;
    for i in 1:3, j in {1, 2} loop
      z := z + i*j;
    end for;
    assert(z > 0, "positive", AssertionLevel.warning);
  external "C" z = ext_f(x, y) annotation(Library = "m");
  annotation(Inline = true, derivative(order = 2) = f_der);
  end f;
  impure function g
    input Real x;
    input Real y;
    output Real a;
    output Real b;
  external "C";
  end g;
  partial model Base
    replaceable model M = Inner constrainedby Inner(k = 1) "replaceable class";
    replaceable Real r = 1 constrainedby Real "replaceable component";
    parameter Real k(min = 0) = 1;
    final parameter Integer n(fixed = true) = 3;
    flow Real fl;
    stream Real st;
    discrete Integer count(start = 0);
    inner Real world;
    outer Real environment;
  end Base;
  model Inner
    parameter Real k = 1;
  end Inner;
  model Full "a model using most equation forms"
    extends Base(k = 2, redeclare model M = Inner(k = 3), break fl);
    extends Base2(break connect(a.p, b.n));
    Real x[3](each start = 0, fixed = {true, false, true});
    Real 'quoted ident\'s';
    Real y if k > 1 "conditional";
    Real z := 3;
    Real v[:] = {1, 2, 3};
    Real m[2, 2] = [1, 2; 3, 4];
    Real row[1, 3] = [x[1], x[2], x[end]];
    Real c[3] = {i^2 for i in 1:3};
    Real s = sum(x[i] for i in 1:3);
    Boolean b = not (x[1] > 0 and x[2] <= 1 or x[3] <> 2 or x[1] == 0 or x[1] >= 1);
    Real fn = f(1, y = 2);
    Real pa = h(function f(y = 2), 1);
    Real tmp = .Modelica.Constants.pi;
    Real e1 = 1.5e-3 + .5 + 2. + 3E+2 + 0.5e1;
    Real e2 = x .* {1, 2, 3} ./ {1, 1, 1} .+ 1 .- 2 .^ 2;
    Real e3 = -x[1] + (if x[1] > 0 then 1 elseif x[1] < -1 then -1 else 0);
    Real e4 = (f(1))[1];
    Real str = String(1.0) + "a\"b\n";
    Real r1 = 1:2:5;
  initial equation
    x[1] = 0;
  initial algorithm
    count := 0;
  equation
    der(x[1]) = -x[1];
    for i in 2:3 loop
      der(x[i]) = x[i - 1];
    end for;
    if k > 1 then
      y = 1;
    elseif k > 0 then
      y = 2;
    else
      y = 3;
    end if;
    when {x[1] > 1, sample(0, 0.1)} then
      reinit(x[1], 0);
      count = pre(count) + 1;
    elsewhen initial() then
      terminate("done");
    end when;
    connect(a.p, b.n) annotation(Line(points = {{-10, 0}, {10, 0}}, color = {0, 0, 255}));
    assert(x[1] < 10, "too large");
  algorithm
    when x[1] > 2 then
      count := count + 1;
    elsewhen x[1] < 0 then
      count := 0;
    end when;
    f(1.0);
  annotation(
    experiment(StartTime = 0, StopTime = 1, Interval = 1e-3, Tolerance = 1e-6),
    Documentation(info = "<html><p>info</p></html>"),
    Icon(graphics = {Rectangle(extent = {{-100, -100}, {100, 100}})}));
  end Full;
  model Short = Full(k = 4) "short model";
  model extends Full(k = 5)
    Real extra;
  end Full;
  block B
    input Real u;
    output Real yb = pure(u);
  end B;
  class C
  public
    Real a;
  protected
    Real b;
  end C;
  record R
    Real a;
  end R;
  connector Conn
    Real v;
    flow Real i;
  end Conn;
end Tour;
