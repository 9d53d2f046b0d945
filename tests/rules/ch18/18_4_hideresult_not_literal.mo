// 18.4: the value of the HideResult annotation must be the literal false or true
model HideresultNotLiteral
  Real y = 2 annotation(HideResult = "yes");
  Real x(start = 1, fixed = true);
equation
  der(x) = -y * x;
end HideresultNotLiteral;
