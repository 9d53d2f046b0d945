// 7.1.4: the class name after constrainedby must be transitively non-replaceable
model ConstrainedbyReplaceable
  replaceable model Base
    Real x = 1;
  end Base;
  model Impl
    Real x = 2;
  end Impl;
  replaceable Impl c constrainedby Base;
end ConstrainedbyReplaceable;
