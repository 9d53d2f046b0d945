// 8.3: no statements (e.g. := assignment) are allowed in equation sections
model AssignmentInEquationSection
  Real x;
equation
  x := 1;
end AssignmentInEquationSection;
