// 4.1: a protected class shall not be accessed via dot notation (A.C)
package A
protected
  model C
    Real x = 1;
  end C;
end A;
model ProtectedClassDotAccess
  A.C c;
end ProtectedClassDotAccess;
