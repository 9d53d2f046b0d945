// 5.3.1: a non-constant variable found in an enclosing class may not be referenced
model EnclosingNonconstant
  parameter Real p = 1;
  model Inner
    Real y = p;
  end Inner;
  Inner i;
end EnclosingNonconstant;
