// 6.4: compatibility: if B is neither transitively non-replaceable nor replaceable, A must be linked to the same class
package PB
  replaceable model I
    Real x = 1;
  end I;
  model M = I;
end PB;

package PA
  replaceable model I
    Real x = 1;
  end I;
  model M
    Real x = 1;
  end M;
end PA;

model NotLinkedToSameClass
  replaceable package P = PA constrainedby PB;
  P.M m;
end NotLinkedToSameClass;
