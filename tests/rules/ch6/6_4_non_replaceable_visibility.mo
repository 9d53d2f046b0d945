// 6.4: compatibility: if B is transitively non-replaceable, each element of B needs one of the same name and visibility in A
package PB
  model M
    Real x = 1;
  end M;
end PB;

package PA
  model M
  protected
    Real x = 1;
  end M;
end PA;

model NonReplaceableVisibility
  replaceable package P = PA constrainedby PB;
  P.M m;
end NonReplaceableVisibility;
