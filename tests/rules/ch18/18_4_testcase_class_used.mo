// 18.4: a class with a TestCase annotation shall not be used in models that have no TestCase annotation
model Case
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(TestCase(shouldPass = true));
end Case;
model TestcaseClassUsed
  Case c;
end TestcaseClassUsed;
