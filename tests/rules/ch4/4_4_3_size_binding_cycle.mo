// 4.4.3: binding cycle through array size (A[n,n] with n = size(A, 1)) is illegal
model ABCD
  parameter Real A[n, n];
  parameter Integer n = size(A, 1);
end ABCD;
model SizeBindingCycle
  final ABCD a;
end SizeBindingCycle;
