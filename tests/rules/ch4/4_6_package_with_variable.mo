// 4.6: a package may only contain declarations of classes and constants (no variables)
package P
  constant Real c = 1;
  Real v;
end P;
model PackageWithVariable
  Real x = P.c;
end PackageWithVariable;
