// 8.3.4: if-equation with non-parameter conditions must have the same number of equations in each branch
model IfUnbalancedBranches
  Real x;
equation
  if time > 0.5 then
    x = 1;
  end if;
end IfUnbalancedBranches;
