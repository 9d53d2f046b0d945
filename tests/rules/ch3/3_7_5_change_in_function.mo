// 3.7.5: edge/change have the same restrictions as pre (e.g. not in function classes)
function F
  input Integer u;
  output Boolean y;
algorithm
  y := change(u);
end F;
model ChangeInFunction
  Integer i = if time > 0.5 then 1 else 0;
  Boolean z = F(i);
end ChangeInFunction;
