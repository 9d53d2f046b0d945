// 12.9.7: the constructor and destructor of an external object shall not be replaceable
class MyObj
  extends ExternalObject;
  replaceable function constructor
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
model ExtobjReplaceableConstructor
  MyObj o = MyObj(1);
  Real y = useObj(o);
end ExtobjReplaceableConstructor;
