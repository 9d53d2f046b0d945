// 12.9.7: it is not legal to call the constructor or destructor of an external object explicitly
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
model ExtobjExplicitConstructorCall
  MyObj o = MyObj.constructor(1);
  Real y = useObj(o);
end ExtobjExplicitConstructorCall;
