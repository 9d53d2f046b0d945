// 18.4: TestCase has the form TestCase(shouldPass = false|true)
model TestcaseNotLiteral
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(TestCase(shouldPass = 1));
end TestcaseNotLiteral;
