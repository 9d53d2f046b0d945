// 13.2.1: a qualified import may only refer to a package or an element of a package (A.B must be a package)
model Mdl
  constant Real c = 1;
end Mdl;
model QualifiedImportFromModel
  import Mdl.c;
  Real x = c;
end QualifiedImportFromModel;
