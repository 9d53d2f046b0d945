// 6.4: compatibility: if B is transitively non-replaceable, A must be transitively non-replaceable too
model Base
  Real x = 1;
end Base;

package PB
  model M = Base;
end PB;

package PA
  replaceable model I = Base;
  model M = I;
end PA;

model NotTransitivelyNonReplaceable
  replaceable package P = PA constrainedby PB;
  P.M m;
end NotTransitivelyNonReplaceable;
