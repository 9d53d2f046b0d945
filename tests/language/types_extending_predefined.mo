// Types extending a predefined type (specification 4.7, 4.9): `type T extends Real(unit =
// "m"); end T;` is T = Real(unit = "m"), and a type may extend another such type or carry the
// functions of an overdetermined type beside its extends clause (9.4); types derived from
// String and Boolean take bindings like the predefined types. An array type's modification
// (`type S = Integer[3](min = {1, 1, 1})`) gives its elements their values in turn. With
// der(x) = -k x, x(0) = 1, k = n = 2 and backward Euler at h = 0.5: x(1) = 1/(1 + 0.5 k)^2
// = 0.25; s[2] = 2.
// run: method=be step=0.5 stop=1
// expect: x 0.25
// expect: y 2
model TypesExtendingPredefined
  type Icon "an icon type"
    extends String;
  end Icon;
  type Label = Icon;
  type Length
    extends Real(unit = "m");
  end Length;
  type Flag
    extends Boolean;
    function equalityConstraint
      input Flag a;
      input Flag b;
      output Real residue[0];
    algorithm
    end equalityConstraint;
  end Flag;
  type Count
    extends Integer(min = 0);
  end Count;
  type Sequence = Integer[3](min = {1, 1, 1}, max = {3, 3, 3});
  parameter Label label1 = "x";
  parameter Flag on = true;
  parameter Count n = 2;
  parameter Sequence s = {1, 2, 3};
  Length x(start = 1, fixed = true);
  Real y = s[2];
equation
  der(x) = if on then -n * x else 0;
end TypesExtendingPredefined;
