// 13.2.2: import-clauses are not named elements and cannot be changed by modifiers
package P
  constant Real c = 1;
end P;
model Base
  import P.c;
  Real y = c;
end Base;
model ImportModified
  Base b(c = 2);
end ImportModified;
