// 12.6: a record constructor can only be called if the record class is found in the global scope (not via a component)
model A
  record R
    Real v;
  end R;
end A;
model RecordConstructorViaComponent
  A a;
  A.R r = a.R(time);
end RecordConstructorViaComponent;
