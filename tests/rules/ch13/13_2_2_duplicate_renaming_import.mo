// 13.2.2: multiple qualified import-clauses shall not have the same import name (renaming imports)
package P
  constant Real a = 1;
  constant Real b = 2;
end P;
model DuplicateRenamingImport
  import k = P.a;
  import k = P.b;
  Real x = 3;
end DuplicateRenamingImport;
