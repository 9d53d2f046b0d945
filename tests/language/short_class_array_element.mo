// A short class definition's modification of an array element (specification 4.5.1, 7.2):
// `model M2 = M(c = {4, 5, 6})`, `c` of an array type, applies whole to a scalar component of
// M2 (it was split over c's elements as a type's own modification is, a size error). As the
// MSL's `model PointMass = Parts.PointMass(sphereColor = {255, 0, 0})`. a.x = ∫ c[1] = 4.
// run: method=be step=0.125 stop=1
// expect: a.x 4
// expect: a.c[3] 6
model ShortClassArrayElement
  type Color = Integer[3](each min = 0, each max = 255);
  model M
    parameter Color c = {1, 2, 3};
    Real x(start = 0, fixed = true);
  equation
    der(x) = c[1];
  end M;
  model M2 = M(c = {4, 5, 6});
  M2 a;
end ShortClassArrayElement;
