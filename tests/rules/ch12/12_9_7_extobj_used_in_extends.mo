// 12.9.7: a class derived from ExternalObject cannot be used in an extends-clause
class MyObj
  extends ExternalObject;
  function constructor
    input Integer n;
    output MyObj obj;
  external "C" obj = mkObj(n);
  end constructor;
  function destructor
    input MyObj obj;
  external "C" freeObj(obj);
  end destructor;
end MyObj;
pure function useObj
  input MyObj obj;
  output Real y;
external "C" y = useObj(obj);
end useObj;
class MyObj2
  extends MyObj;
end MyObj2;
model ExtobjUsedInExtends
  MyObj2 o = MyObj2(1);
  Real y = useObj(o);
end ExtobjUsedInExtends;
