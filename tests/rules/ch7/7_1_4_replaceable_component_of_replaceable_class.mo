// 7.1.4: a replaceable component without constrainedby must use a transitively non-replaceable class
model ReplaceableComponentOfReplaceableClass
  replaceable model Base
    Real x = 1;
  end Base;
  replaceable Base b;
end ReplaceableComponentOfReplaceableClass;
