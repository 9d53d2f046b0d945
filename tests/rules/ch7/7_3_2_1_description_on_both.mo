// 7.3.2.1: a description may not appear both on the constraining-clause and on the declaration
model Base
  Real x = 1;
end Base;

model DescriptionOnBoth
  replaceable Base b "a" constrainedby Base "b";
end DescriptionOnBoth;
