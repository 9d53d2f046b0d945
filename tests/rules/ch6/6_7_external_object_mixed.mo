// 6.7: type-compatible expressions: ExternalObject operands must have the same full name
class EO1
  extends ExternalObject;
  function constructor
    output EO1 eo;
  external "C" eo = eoNew1();
  end constructor;
  function destructor
    input EO1 eo;
  external "C" eoFree1(eo);
  end destructor;
end EO1;

class EO2
  extends ExternalObject;
  function constructor
    output EO2 eo;
  external "C" eo = eoNew2();
  end constructor;
  function destructor
    input EO2 eo;
  external "C" eoFree2(eo);
  end destructor;
end EO2;

model ExternalObjectMixed
  parameter Boolean b = true;
  parameter EO1 e1 = EO1();
  parameter EO2 e2 = EO2();
  parameter EO1 e3 = if b then e1 else e2;
end ExternalObjectMixed;
