// 7.1.4: the class name after extends must be transitively non-replaceable
model ExtendsReplaceable
  replaceable model Base
    Real x = 1;
  end Base;
  model D
    extends Base;
  end D;
  D d;
end ExtendsReplaceable;
