// 6.4: compatibility: if B is transitively non-replaceable, A's interface shall contain no elements beyond B's
package PB
  model M
    Real x = 1;
  end M;
end PB;

package PA
  model M
    Real x = 1;
    Real y = 2;
  end M;
end PA;

model NonReplaceableExtraElement
  replaceable package P = PA constrainedby PB;
  P.M m;
end NonReplaceableExtraElement;
