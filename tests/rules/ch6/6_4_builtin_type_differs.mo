// 6.4: compatibility: if B is a built-in type, A must be the same built-in type and vice versa (Integer is no subtype of Real)
model Top
  replaceable type T = Real;
  T x = 1;
end Top;

model BuiltinTypeDiffers
  extends Top(redeclare type T = Integer);
end BuiltinTypeDiffers;
