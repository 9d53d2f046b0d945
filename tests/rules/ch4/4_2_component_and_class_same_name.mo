// 4.2: a component and a local class shall not have the same name
model ComponentAndClassSameName
  model x
    Real y = 1;
  end x;
  Real x = 1;
end ComponentAndClassSameName;
