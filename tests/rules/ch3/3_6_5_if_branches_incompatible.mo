// 3.6.5: the branches of an if-expression must be type compatible
model IfBranchesIncompatible
  parameter Boolean b = true;
  Real y = if b then 1.0 else false;
end IfBranchesIncompatible;
