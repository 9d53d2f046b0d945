// 13.2.2: import-clauses are not inherited
package P
  constant Real c = 1;
end P;
model Base
  import P.c;
  Real y = c;
end Base;
model ImportNotInherited
  extends Base;
  Real x = c;
end ImportNotInherited;
