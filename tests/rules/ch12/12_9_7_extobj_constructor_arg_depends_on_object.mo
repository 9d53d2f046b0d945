// 12.9.7: the arguments of an external object constructor must not depend on the object being constructed
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
model ExtobjConstructorArgDependsOnObject
  MyObj o = MyObj(integer(useObj(o)));
  Real y = useObj(o);
end ExtobjConstructorArgDependsOnObject;
