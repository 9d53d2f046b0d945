// The ends of 1-D tables as ModelicaStandardTables computes them (found by
// compiler/examples/table_crosscheck.rs, rtc's expression tables against the C library;
// tests/it/tables.rs checks each column's closed form every 0.125 s from 0 to 4):
//  - p: a periodic linear table [0, 1; 1, 3; 2, 2] looked up at u = 2t - 4. The C wraps only
//    from outside [0, 2] and keeps both ends: u = 2 and u = 4 give the last row's 2 (a wrap
//    into [0, 2) would give the first row's 1), u = -2 gives 1;
//  - s, v: the same table held at its last point, looked up at w = 2t, and the derivative of
//    that lookup: at w = 2 (t = 1) the last interval's slope, -1 per unit of w (v = -2), as
//    the C's derivative function gives, not the held extrapolation's 0.
model TableEnds
  type Smoothness = enumeration(LinearSegments, ContinuousDerivative, ConstantSegments, MonotoneContinuousDerivative1, MonotoneContinuousDerivative2, ModifiedContinuousDerivative);
  type Extrapolation = enumeration(HoldLastPoint, LastTwoPoints, Periodic, NoExtrapolation);
  class Table1D
    extends ExternalObject;
    function constructor
      input String tableName;
      input String fileName;
      input Real table[:, :];
      input Integer columns[:];
      input Smoothness smoothness;
      input Extrapolation extrapolation = Extrapolation.LastTwoPoints;
      output Table1D t;
      external "C" t = ModelicaStandardTables_CombiTable1D_init3(fileName, tableName, table, size(table, 1), size(table, 2), columns, size(columns, 1), smoothness, extrapolation);
    end constructor;
    function destructor
      input Table1D t;
      external "C" ModelicaStandardTables_CombiTable1D_close(t);
    end destructor;
  end Table1D;
  class TimeTable
    extends ExternalObject;
    function constructor
      input String tableName;
      input String fileName;
      input Real table[:, :];
      input Real startTime;
      input Integer columns[:];
      input Smoothness smoothness;
      input Extrapolation extrapolation;
      input Real shiftTime = 0;
      output TimeTable t;
      external "C" t = ModelicaStandardTables_CombiTimeTable_init3(fileName, tableName, table, size(table, 1), size(table, 2), startTime, columns, size(columns, 1), smoothness, extrapolation, shiftTime);
    end constructor;
    function destructor
      input TimeTable t;
      external "C" ModelicaStandardTables_CombiTimeTable_close(t);
    end destructor;
  end TimeTable;
  pure function value1D
    input Table1D t;
    input Integer icol;
    input Real u;
    output Real y;
    external "C" y = ModelicaStandardTables_CombiTable1D_getValue(t, icol, u);
  end value1D;
  parameter Real tl[3, 2] = [0, 1; 1, 3; 2, 2];
  parameter Table1D per = Table1D("NoName", "NoName", tl, {2}, Smoothness.LinearSegments, Extrapolation.Periodic);
  parameter Table1D hold = Table1D("NoName", "NoName", tl, {2}, Smoothness.LinearSegments, Extrapolation.HoldLastPoint);
  Real p = value1D(per, 1, 2 * time - 4);
  Real s = value1D(hold, 1, 2 * time);
  Real v;
equation
  v = der(s);
end TableEnds;
