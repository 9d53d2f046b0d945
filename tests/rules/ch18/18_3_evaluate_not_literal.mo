// 18.3: the value of the Evaluate annotation must be the literal false or true
model EvaluateNotLiteral
  parameter Real k = 2 annotation(Evaluate = 1);
  Real x(start = 1, fixed = true);
equation
  der(x) = -k * x;
end EvaluateNotLiteral;
