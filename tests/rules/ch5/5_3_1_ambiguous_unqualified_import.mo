// 5.3.1: a name matched by several unqualified imports is an error
package P1
  constant Real k = 1;
end P1;

package P2
  constant Real k = 2;
end P2;

model AmbiguousUnqualifiedImport
  import P1.*;
  import P2.*;
  Real y = k;
end AmbiguousUnqualifiedImport;
