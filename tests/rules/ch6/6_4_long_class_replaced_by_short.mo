// 6.4: compatibility: if B is a non-replaceable long class definition, A must also be a long class definition
model Base
  Real x = 1;
end Base;

package PB
  model M
    Real x = 1;
  end M;
end PB;

package PA
  model M = Base;
end PA;

model LongClassReplacedByShort
  replaceable package P = PA constrainedby PB;
  P.M m;
end LongClassReplacedByShort;
