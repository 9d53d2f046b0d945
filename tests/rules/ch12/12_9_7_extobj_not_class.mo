// 12.9.7: an external object class shall be of the specialized class class
model MyObj
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
model ExtobjNotClass
  MyObj o = MyObj(1);
  Real y = useObj(o);
end ExtobjNotClass;
