// 7.3.2.1: an annotation may not appear both on the constraining-clause and on the declaration
model Base
  Real x = 1;
end Base;

model AnnotationOnBoth
  replaceable Base b annotation(Dialog(group = "a")) constrainedby Base annotation(Dialog(group = "b"));
end AnnotationOnBoth;
