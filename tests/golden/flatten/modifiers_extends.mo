// Modification precedence: component > extends > declaration; short types with units;
// `each`; conditional components; parameter-selected if-equations; import and constants.
model ModifiersExtends
  import C = Rtc.Constants;
  type Voltage = Real(unit = "V");
  partial model Base
    parameter Real k = 1 "gain";
    parameter Real offset = 0;
    Voltage y(start = 0);
  end Base;
  model Gain
    extends Base(k = 2, offset = 1);
    input Real u;
  equation
    y = k*u + offset;
  end Gain;
  parameter Boolean useSecond = false;
  Gain g1(k = 3, u = sin(2*C.pi*time));
  Gain g2[2](each offset = 5, k = {10, 20}, each u = 1);
  Gain g3(u = 0) if useSecond;
  Real z;
equation
  if useSecond then
    z = 2;
  else
    z = g1.y + g2[2].y;
  end if;
end ModifiersExtends;
