// 12.9.7: an external object class shall have exactly two functions, constructor and destructor
class MyObj
  extends ExternalObject;
  function constructor
    input Integer n;
    output MyObj obj;
  external "C" obj = mkObj(n);
  end constructor;
end MyObj;
pure function useObj
  input MyObj obj;
  output Real y;
external "C" y = useObj(obj);
end useObj;
model ExtobjMissingDestructor
  MyObj o = MyObj(1);
  Real y = useObj(o);
end ExtobjMissingDestructor;
