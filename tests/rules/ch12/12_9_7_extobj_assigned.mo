// 12.9.7: an external object can only be bound in its declaration, not assigned to
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
model ExtobjAssigned
  MyObj o;
  Real y = useObj(o);
algorithm
  o := MyObj(1);
end ExtobjAssigned;
