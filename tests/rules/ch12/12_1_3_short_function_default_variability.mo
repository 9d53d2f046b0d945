// 12.1.3: defaults given by short function modifiers count as call arguments for variability (constant binding using x=time)
model ShortFunctionDefaultVariability
  function foo
    input Real x1;
    input Real x2 = 2;
    output Real y;
  algorithm
    y := x1 + x2;
  end foo;
  Real x = time;
  function f1 = foo(x1 = x);
  constant Real z2 = f1(x2 = 1);
end ShortFunctionDefaultVariability;
