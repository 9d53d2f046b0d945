// Functions compiled out of line (specification 12), each called from several places:
// - polyval: Horner's scheme over a coefficient array (a for-loop), in an implicit equation;
// - sumProd: two outputs computed by one loop;
// - cube: annotation(derivative = cubeDer, Inline = false), so the Jacobian of the loop it
//   is in calls cubeDer (rtc must not differentiate the body);
// - scaled: derivative(zeroDerivative = k) = scaledDer, called with a parameter k (the
//   annotation applies) and with k depending on the unknown solved for (the body is
//   differentiated);
// - shifted: LateInline = true: a call through the symbolic phases, inlined in the step;
// - smallLoop: Inline = true: inlined although it has a loop.
// The states follow simple linear laws so that the run can be compared with the same model
// with every call inlined (rtc --inline-functions).
model OutOfLine
  function polyval "c[1]*x^(n-1) + ... + c[n]"
    input Real c[:];
    input Real x;
    output Real y = 0;
  algorithm
    for k in 1:size(c, 1) loop
      y := y * x + c[k];
    end for;
  end polyval;
  function sumProd
    input Real v[:];
    output Real s = 0;
    output Real p = 1;
  algorithm
    for k in 1:size(v, 1) loop
      s := s + v[k];
      p := p * v[k];
    end for;
  end sumProd;
  function cube
    input Real u;
    input Real k "a gain that is not differentiated";
    output Real y;
  algorithm
    y := k * u ^ 3;
    annotation(derivative(noDerivative = k) = cubeDer, Inline = false);
  end cube;
  function cubeDer
    input Real u;
    input Real k;
    input Real du;
    output Real dy;
  algorithm
    dy := 3 * k * u ^ 2 * du;
  end cubeDer;
  function scaled "zeroDerivative: the annotation holds only where k does not change"
    input Real u;
    input Real k;
    output Real y;
  algorithm
    y := k * sin(u);
    annotation(derivative(zeroDerivative = k) = scaledDer, Inline = false);
  end scaled;
  function scaledDer
    input Real u;
    input Real k;
    input Real du;
    output Real dy;
  algorithm
    dy := k * cos(u) * du;
  end scaledDer;
  function shifted
    input Real u;
    output Real y;
  algorithm
    y := u + 1;
    annotation(LateInline = true);
  end shifted;
  function smallLoop
    input Real u;
    output Real y = 0;
  algorithm
    for k in 1:3 loop
      y := y + u / k;
    end for;
    annotation(Inline = true);
  end smallLoop;
  parameter Real c[3] = {0.5, 1, 2};
  parameter Real gain = 0.25;
  Real x(start = 1, fixed = true);
  Real w(start = 0.5, fixed = true);
  Real y "solved from an implicit equation through polyval";
  Real z "solved from an implicit equation through cube";
  Real s;
  Real p;
  Real s2;
  Real p2;
  Real q;
  Real r;
  Real e1;
  Real e2;
equation
  der(x) = -0.5 * x + 0.1 * y;
  polyval(c, y) = 2 + x;
  cube(z, gain) + z = w;
  der(w) = -w + 0.2 * z;
  (s, p) = sumProd({x, y, w});
  (s2, p2) = sumProd({x, w, 2});
  q = shifted(polyval(c, w)) + p2;
  r = smallLoop(x);
  scaled(e1, gain) + e1 = x;
  scaled(e2, e2 + 1) + e2 = x;
  annotation(experiment(StopTime = 2, Interval = 0.01));
end OutOfLine;
