// 7.3.2: the class of a replaceable component shall be a subtype of its constraining type
model Base
  Real x = 1;
end Base;

model Other
  Real z = 1;
end Other;

model TypeNotSubtypeOfConstraint
  replaceable Other c constrainedby Base;
end TypeNotSubtypeOfConstraint;
