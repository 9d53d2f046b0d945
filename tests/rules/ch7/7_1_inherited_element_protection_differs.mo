// 7.1: identical same-name inherited elements must also have the same protection (public/protected)
model A
  Real x = 1;
end A;

model InheritedElementProtectionDiffers
  extends A;
protected
  Real x = 1;
end InheritedElementProtectionDiffers;
