package ExtPoly "External C functions whose code rtc builds from the library's resources"
  pure function poly "x^3 - 2*x, from the library ExtPolySrc built from its sources"
    input Real x;
    output Real y;
    external "C" y = ext_poly(x) annotation(Library = "ExtPolySrc");
  end poly;

  pure function twice "2*x, defined by the C text of its Include annotation"
    input Real x;
    output Real y;
    external "C" y = ext_twice(x)
      annotation(Include = "#include \"twice.h\"", IncludeDirectory = "modelica://ExtPoly/Resources/Include");
  end twice;

  model Example
    Real x(start = 1, fixed = true);
    Real y "x^3, computed in C";
  equation
    der(x) = -x;
    y = poly(x) + twice(x);
    annotation(experiment(StopTime = 1, Interval = 0.1));
  end Example;

  pure function missing
    input Real x;
    output Real y;
    external "C" y = ext_missing(x) annotation(Library = "NoSuchLibrary");
  end missing;

  model Missing
    Real y = missing(time);
    annotation(experiment(StopTime = 1, Interval = 0.1));
  end Missing;
end ExtPoly;
