// 7.1.3: an expandable connector may only extend an expandable connector or a class
connector C
  Real x;
end C;

expandable connector E
  extends C;
end E;

model ExpandableExtendsConnector
  E e;
equation
  e.x = 1;
end ExpandableExtendsConnector;
