// 6.4: compatibility: if B is not replaceable then A shall not be replaceable (nested element of a redeclared package)
package PB
  model M
    Real x = 1;
  end M;
end PB;

package PA
  replaceable model M
    Real x = 1;
  end M;
end PA;

model ReplaceableVsNonReplaceable
  replaceable package P = PA constrainedby PB;
  P.M m;
end ReplaceableVsNonReplaceable;
