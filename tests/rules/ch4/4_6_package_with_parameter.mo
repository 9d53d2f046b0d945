// 4.6: a package may only contain declarations of classes and constants (no parameters)
package P
  parameter Real p = 1;
end P;
model PackageWithParameter
  Real x = P.p;
end PackageWithParameter;
