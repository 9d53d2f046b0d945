model DerProduct
  Real x(start = 1, fixed = true);
  Real y(start = 1, fixed = true);
  Real z;
equation
  der(x) = -x;
  der(y) = -y;
  z = der(x*y);
end DerProduct;
