// Modifiers of two components that refer into each other (7.2), as the MSL's transformer
// examples do (`transformerData(C1 = …transformer.VectorGroup…)` and
// `transformer(n = transformerData.n)`): a component an expression refers into is made when
// the reference needs it and completed afterwards, so only the elements each value needs are
// evaluated. n = 2 for group "Yd", so y = 2 t.
// run: method=be step=0.5 stop=1
// expect: y 2
model MutualComponentReferences
  model D
    parameter String c = "Y";
    parameter Real n = if c == "Y" then 2 else 3;
  end D;
  model T
    parameter String group = "Yd";
    parameter Real n = 1;
    Real x;
  equation
    x = n * time;
  end T;
  D d(c = if t.group == "Yd" then "Y" else "D");
  T t(n = d.n);
  Real y = t.x;
end MutualComponentReferences;
