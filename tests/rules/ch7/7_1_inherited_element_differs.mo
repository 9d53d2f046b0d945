// 7.1: an inherited element with the same name as another element must be identical to it
model A
  Real x = 1;
end A;

model InheritedElementDiffers
  extends A;
  Real x = 2;
end InheritedElementDiffers;
