// 12.9.7: the destructor shall have no outputs and a single input of the external object type
class MyObj
  extends ExternalObject;
  function constructor
    input Integer n;
    output MyObj obj;
  external "C" obj = mkObj(n);
  end constructor;
  function destructor
    input MyObj obj;
    output Real r;
  external "C" r = freeObj(obj);
  end destructor;
end MyObj;
pure function useObj
  input MyObj obj;
  output Real y;
external "C" y = useObj(obj);
end useObj;
model ExtobjDestructorWithOutput
  MyObj o = MyObj(1);
  Real y = useObj(o);
end ExtobjDestructorWithOutput;
