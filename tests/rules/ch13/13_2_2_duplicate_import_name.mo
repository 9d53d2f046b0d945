// 13.2.2: multiple qualified import-clauses shall not have the same import name
package P
  constant Real c = 1;
end P;
package Q
  constant Real c = 2;
end Q;
model DuplicateImportName
  import P.c;
  import Q.c;
  Real x = 3;
end DuplicateImportName;
