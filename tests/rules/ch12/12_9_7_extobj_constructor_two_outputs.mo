// 12.9.7: the constructor of an external object shall have exactly one output
class MyObj
  extends ExternalObject;
  function constructor
    input Integer n;
    output MyObj obj;
    output Integer extra;
  external "C" obj = mkObj(n, extra);
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
model ExtobjConstructorTwoOutputs
  MyObj o = MyObj(1);
  Real y = useObj(o);
end ExtobjConstructorTwoOutputs;
