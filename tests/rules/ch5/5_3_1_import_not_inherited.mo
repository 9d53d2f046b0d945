// 5.3.1: import-clauses are not inherited: an imported name of a base class is not visible in the derived class
package P
  constant Real k = 1;
end P;

model Base
  import P.k;
end Base;

model ImportNotInherited
  extends Base;
  Real y = k;
end ImportNotInherited;
