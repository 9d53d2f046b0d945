// 12.9.7: a class derived from ExternalObject cannot be used in a short class definition
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
class MyObj2 = MyObj;
model ExtobjShortClass
  MyObj2 o = MyObj2(1);
  Real y = useObj(o);
end ExtobjShortClass;
