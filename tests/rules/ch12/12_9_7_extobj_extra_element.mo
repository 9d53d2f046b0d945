// 12.9.7: an external object class shall not contain elements other than constructor and destructor
class MyObj
  extends ExternalObject;
  constant Integer k = 1;
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
model ExtobjExtraElement
  MyObj o = MyObj(1);
  Real y = useObj(o);
end ExtobjExtraElement;
