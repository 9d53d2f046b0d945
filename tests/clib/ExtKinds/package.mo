package ExtKinds "External C functions of every argument kind (specification 12.9.1), through rtc's C shims"
  pure function lcg "A random number and the next state: Integer arrays in and out, a Real through a pointer"
    input Integer stateIn[2];
    output Real r;
    output Integer stateOut[2];
    external "C" kinds_lcg(stateIn, stateOut, r) annotation(Library = "ExtKindsSrc");
  end lcg;

  pure function weighted "sum(u .* w), the size passed as size_t"
    input Real u[:];
    input Real w[size(u, 1)];
    output Real y;
    external "C" y = kinds_weighted(u, w, size(u, 1)) annotation(Library = "ExtKindsSrc");
  end weighted;

  pure function hash "A String in, an Integer out"
    input String s;
    output Integer h;
    external "C" h = kinds_hash(s) annotation(Library = "ExtKindsSrc");
  end hash;

  pure function matrix "A Boolean in, an Integer matrix out"
    input Boolean flip;
    output Integer m[2, 2];
    external "C" kinds_matrix(flip, m) annotation(Library = "ExtKindsSrc");
  end matrix;

  pure function checked "2*x, a ModelicaError past the limit"
    input Real x;
    input Real limit;
    output Real y;
    external "C" y = kinds_checked(x, limit) annotation(Library = "ExtKindsSrc");
  end checked;

  impure function setOffset "Stores x in the library (no output: called for its effect)"
    input Real x;
    external "C" kinds_set_offset(x) annotation(Library = "ExtKindsSrc");
  end setOffset;

  impure function initOffset "Stores x and returns an id that orders the calls after it"
    input Real x;
    output Integer id;
  algorithm
    id := 7;
    setOffset(x);
  end initOffset;

  impure function offset "The stored value"
    input Integer id;
    output Real y;
    external "C" y = kinds_offset(id) annotation(Library = "ExtKindsSrc");
  end offset;

  model Example
    parameter Integer id = initOffset(0.25);
    Integer seed = hash("rtc");
    Integer m[2, 2] = matrix(true);
    Integer mSum = m[1, 1] + 10*m[1, 2] + 100*m[2, 1] + 1000*m[2, 2];
    Real x(start = 1, fixed = true);
    Real w "x*1 + 2x*3 = 7x";
    discrete Real o(start = 0, fixed = true) "the offset read back";
    discrete Real r(start = 0, fixed = true);
    discrete Integer state[2](start = {1, 2}, each fixed = true);
    output Real wOut = w;
    output Real oOut = o;
    output Real rOut = r;
    output Real sOut = state[1];
  equation
    der(x) = -x;
    w = weighted({x, 2*x}, {1, 3});
    when sample(0, 0.25) then
      (r, state) = lcg(pre(state));
      o = offset(id);
    end when;
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end Example;

  pure function greeting "A String result, computed when the model is compiled"
    input Integer n;
    output String s;
    external "C" s = kinds_greeting(n) annotation(Library = "ExtKindsSrc");
  end greeting;

  pure function len "The length of a String"
    input String s;
    output Integer n;
    external "C" n = kinds_length(s) annotation(Library = "ExtKindsSrc");
  end len;

  model Compiled "Calls on known arguments evaluated when the model is compiled: a String result, an array size"
    parameter Integer n = len(greeting(42)) "4: the length of \"n=42\"";
    Real v[len("abc")](each start = 1, each fixed = true);
    Real w = n;
  equation
    der(v) = -v;
    annotation(experiment(StopTime = 0.1, Interval = 0.1));
  end Compiled;

  model Guarded "A call made for its effect under a condition is made only where it holds"
    discrete Real o(start = -1, fixed = true);
  algorithm
    when sample(0, 0.25) then
      if time > 0.3 then
        setOffset(time);
      end if;
    end when;
    when sample(0.1, 0.25) then
      o := offset(1);
    end when;
    annotation(experiment(StopTime = 1, Interval = 0.05));
  end Guarded;

  class FileSum "An external object made from a data file: the sum of its numbers"
    extends ExternalObject;
    function constructor
      input String path;
      output FileSum f;
      external "C" f = kinds_file_new(path) annotation(Library = "ExtKindsSrc");
    end constructor;
    function destructor
      input FileSum f;
      external "C" kinds_file_free(f) annotation(Library = "ExtKindsSrc");
    end destructor;
  end FileSum;

  pure function fileScale "The file's sum times x"
    input FileSum f;
    input Real x;
    output Real y;
    external "C" y = kinds_file_scale(f, x) annotation(Library = "ExtKindsSrc");
  end fileScale;

  class Poly "An external object (12.9.7): a polynomial held by the library"
    extends ExternalObject;
    function constructor
      input Real c[:] "Coefficients, constant term first";
      output Poly p;
      external "C" p = kinds_poly_new(c, size(c, 1)) annotation(Library = "ExtKindsSrc");
    end constructor;
    function destructor
      input Poly p;
      external "C" kinds_poly_free(p) annotation(Library = "ExtKindsSrc");
    end destructor;
  end Poly;

  pure function polyValue
    input Poly p;
    input Real x;
    output Real y;
    external "C" y = kinds_poly_eval(p, x) annotation(Library = "ExtKindsSrc");
  end polyValue;

  model Object "y = 1 + 2x + 3x^2 from the library's object"
    parameter Poly p = Poly({1, 2, 3});
    Real x = time;
    Real y = polyValue(p, x);
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end Object;

  pure function polyValueD "polyValue with the library's derivatives (12.7.1)"
    input Poly p;
    input Real x;
    output Real y;
    external "C" y = kinds_poly_eval(p, x) annotation(Library = "ExtKindsSrc");
    annotation(derivative(noDerivative = p) = polyDer);
  end polyValueD;

  pure function polyDer "p'(x) dx"
    input Poly p;
    input Real x;
    input Real dx;
    output Real dy;
    external "C" dy = kinds_poly_der(p, x, dx) annotation(Library = "ExtKindsSrc");
    annotation(derivative(order = 2, noDerivative = p) = polyDer2);
  end polyDer;

  pure function polyDer2 "p''(x) dx^2 + p'(x) ddx"
    input Poly p;
    input Real x;
    input Real dx;
    input Real ddx;
    output Real ddy;
    external "C" ddy = kinds_poly_der2(p, x, dx, ddx) annotation(Library = "ExtKindsSrc");
  end polyDer2;

  model Prescribed "A mass moved along s = p(x(t)): its force needs the second derivative of the library's function"
    parameter Poly p = Poly({1, 2, 3, 4});
    parameter Real m = 2;
    Real x(start = 0.5, fixed = true);
    Real s;
    Real v;
    Real f;
  equation
    der(x) = 1 - x;
    s = polyValueD(p, x);
    der(s) = v;
    m*der(v) = f;
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end Prescribed;

  model PrescribedDifferenced "Prescribed without derivative functions: central differences"
    parameter Poly p = Poly({1, 2, 3, 4});
    parameter Real m = 2;
    Real x(start = 0.5, fixed = true);
    Real s;
    Real v;
    Real f;
  equation
    der(x) = 1 - x;
    s = polyValue(p, x);
    der(s) = v;
    m*der(v) = f;
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end PrescribedDifferenced;

  impure function report "Reports x through the library's message callback (an effect)"
    input Real x;
    external "C" kinds_report(x) annotation(Library = "ExtKindsSrc");
  end report;

  model Final "when terminal() (3.7.4.2): acts once, after the last step"
    Real x(start = 1, fixed = true);
    discrete Integer n(start = 0, fixed = true) "samples at 0.25, 0.5, 0.75, 1, then the end";
  equation
    der(x) = -x;
    when {sample(0.25, 0.25), terminal()} then
      n = pre(n) + 1;
    end when;
  algorithm
    when terminal() then
      report(x);
      report(n);
    end when;
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end Final;

  impure function say "Reports a String through the library's message callback (an effect)"
    input String s;
    external "C" kinds_say(s) annotation(Library = "ExtKindsSrc");
  end say;

  model Formatted "Strings made while the model runs (3.7.1.2), formatted as C's printf formats them"
    Real x(start = 1, fixed = true);
    Integer n(start = 0, fixed = true);
  equation
    der(x) = -x;
  algorithm
    when sample(0.25, 0.25) then
      n := pre(n) + 1;
      say("t=" + String(time) + " x=" + String(x, significantDigits = 10) + " n=" + String(n, minimumLength = 3, leftJustified = false) + " big=" + String(x > 0.5, minimumLength = 6) + "| e=" + String(x, format = "12.4e") + " hex=" + String(10 * n, format = "x") + " 100%");
    end when;
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end Formatted;

  model SaidInEquations "Empty calls in when-equations (12.4.7, as the MSL's `when terminal() then Streams.close(file)`): made when their clause fires, beside its other equations"
    Real x(start = 1, fixed = true);
    Integer n(start = 0, fixed = true);
  equation
    der(x) = -x;
    when sample(0.25, 0.25) then
      n = pre(n) + 1;
      say("tick " + String(n) + " t=" + String(time));
    end when;
    when terminal() then
      say("end");
    end when;
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end SaidInEquations;

  model Wide "A call with more than 32 arguments (an FFT's buffer): its arguments stored one by one, one call for its outputs"
    parameter Integer n = 40;
    Real u[n] = {k * time for k in 1:n};
    Real y = weighted(u, fill(1, n)) "time * n (n + 1) / 2";
    Real z = 2 * weighted(u, fill(1, n));
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end Wide;

  model Failing
    Real y = checked(time, 0.5);
    annotation(experiment(StopTime = 1, Interval = 0.1));
  end Failing;
  record Inner
    Real a;
    Boolean on;
  end Inner;

  record Gains "struct { double k; int n; struct { double a; int on; } core; const char* tag; }"
    Real k;
    Integer n;
    Inner core;
    String tag;
  end Gains;

  record Stats "What the library writes"
    Real sum;
    Integer count;
    Inner last;
  end Stats;

  pure function apply "k x n + (a if on) + the tag's length: a record in, by reference"
    input Gains g;
    input Real x;
    output Real y;
    external "C" y = kinds_apply(g, x) annotation(Library = "ExtKindsSrc");
  end apply;

  pure function stats "A record the library writes: sum = k x + a, count = n + the tag's length, last = (-x, not on)"
    input Real x;
    input Gains g;
    output Stats s;
    external "C" kinds_stats(x, g, s) annotation(Library = "ExtKindsSrc");
  end stats;

  pure function accumulate "The record's values before the call are passed in: sum + x, count + 1"
    input Real x;
    input Stats s0;
    output Stats s = s0;
    external "C" kinds_accumulate(x, s) annotation(Library = "ExtKindsSrc");
  end accumulate;

  model Records "Records passed to and written by C functions (12.9.1.3)"
    parameter Gains g = Gains(k = 2, n = 3, core = Inner(a = 0.5, on = true), tag = "abcd");
    parameter Stats s0 = stats(1.5, g) "known when compiled: (3.5, 7, (-1.5, false))";
    Real x(start = 1, fixed = true);
    Real y = apply(g, x) "6 x + 4.5";
    Stats s = stats(x, g) "(2 x + 0.5, 7, (-x, false))";
    Stats t = accumulate(x, s0) "(3.5 + x, 8, (-1.5, false))";
  equation
    der(x) = -x;
    annotation(experiment(StopTime = 1, Interval = 0.25));
  end Records;
end ExtKinds;
