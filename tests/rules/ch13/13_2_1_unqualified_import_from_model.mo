// 13.2.1: an unqualified import may only import from a package (A.B.* requires A.B a package)
model Mdl
  constant Real c = 1;
end Mdl;
model UnqualifiedImportFromModel
  import Mdl.*;
  Real x = c;
end UnqualifiedImportFromModel;
