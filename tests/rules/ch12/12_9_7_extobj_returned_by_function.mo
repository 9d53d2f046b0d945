// 12.9.7: only the constructor may return external objects
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
function passObj
  input MyObj a;
  output MyObj b;
algorithm
  b := a;
end passObj;
model ExtobjReturnedByFunction
  MyObj o = MyObj(1);
  MyObj o2 = passObj(o);
  Real y = useObj(o2);
end ExtobjReturnedByFunction;
