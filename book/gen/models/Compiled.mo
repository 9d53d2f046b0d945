model Compiled
  function polyval "c[1]*x^(n-1) + ... + c[n] by Horner's scheme"
    input Real c[:];
    input Real x;
    output Real y = 0;
  algorithm
    for k in 1:size(c, 1) loop
      y := y * x + c[k];
    end for;
  end polyval;
  function cube
    input Real u;
    input Real k;
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
  parameter Real c[3] = {0.5, 1, 2};
  Real x(start = 1, fixed = true);
  Real y;
  Real z;
equation
  der(x) = -0.5 * x + 0.1 * y;
  polyval(c, y) = 2 + x;
  cube(z, 0.25) + z = x;
end Compiled;
