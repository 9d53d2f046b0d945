model UnsupportedFunction
  function square
    input Real u;
    output Real y;
  algorithm
    y := u*u;
  end square;
  Real x;
equation
  x = square(time);
end UnsupportedFunction;
