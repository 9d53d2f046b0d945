// 7.1.3: a package may only extend a package or a class
model M
  constant Real k = 1;
end M;

package P
  extends M;
end P;

model PackageExtendsModel
  Real y = P.k;
end PackageExtendsModel;
