// Time tables as ModelicaStandardTables defines them (the MSL's CombiTimeTable interface, as
// in SplineTables.mo). Each column's value is known in closed form; tests/it/tables.rs checks
// them every 0.125 s from 0 to 8 and that their breakpoints are time events.
//  - held: constant segments with a repeated first point (the MSL's BooleanTable for
//    {2, 4, 6}): 0 before 2 (HoldLastPoint holds the first row), 1 on [2, 4), 0 on [4, 6),
//    1 from 6 on;
//  - jump: linear segments with a jump at 2 (rows (2, 1) and (2, 4)), shifted by 1
//    (u = t - 1), extended by LastTwoPoints: 0.5·u below the jump (left of the table too: the
//    line through the first two rows), 4 + (u - 2) from it on (right of the table too);
//  - stairs: constant segments extended by LastTwoPoints, which extrapolates linearly through
//    the two end rows, shifted by 2: below u = 0 the line through (0, 1) and (1, 2), above
//    u = 3 the line through (1, 2) and (3, 5);
//  - late: a linear table that starts at startTime = 0.5 (0 before);
//  - periodic: constant segments, period 2;
//  - H: the integral of h.
model TimeTables
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
  pure function maxAbscissa
    input Table1D t;
    output Real u;
    external "C" u = ModelicaStandardTables_CombiTable1D_maximumAbscissa(t);
  end maxAbscissa;
  pure function valueTime
    input TimeTable t;
    input Integer icol;
    input Real time_;
    output Real y;
    external "C" y = ModelicaStandardTables_CombiTimeTable_getValue(t, icol, time_, 0, 0);
  end valueTime;
  parameter Real tb[4, 2] = [2, 0; 2, 1; 4, 0; 6, 1];
  parameter Real tj[4, 2] = [0, 0; 2, 1; 2, 4; 3, 5];
  parameter Real tc[3, 2] = [0, 1; 1, 2; 3, 5];
  parameter Real tp[3, 2] = [0, 1; 1, 2; 2, 3];
  parameter TimeTable held = TimeTable("NoName", "NoName", tb, -1e30, {2}, Smoothness.ConstantSegments, Extrapolation.HoldLastPoint);
  parameter TimeTable jump = TimeTable("NoName", "NoName", tj, -1e30, {2}, Smoothness.LinearSegments, Extrapolation.LastTwoPoints, 1);
  parameter TimeTable stairs = TimeTable("NoName", "NoName", tc, -1e30, {2}, Smoothness.ConstantSegments, Extrapolation.LastTwoPoints, 2);
  parameter TimeTable late = TimeTable("NoName", "NoName", tj, 0.5, {2}, Smoothness.LinearSegments, Extrapolation.HoldLastPoint);
  parameter TimeTable periodic = TimeTable("NoName", "NoName", tp, -1e30, {2}, Smoothness.ConstantSegments, Extrapolation.Periodic);
  Real h = valueTime(held, 1, time);
  Real j = valueTime(jump, 1, time);
  Real c = valueTime(stairs, 1, time);
  Real l = valueTime(late, 1, time);
  Real p = valueTime(periodic, 1, time);
  // With steps that do not land on 2, 4 and 6, backward Euler integrates the piecewise
  // constant h exactly only if the steps are split at its breakpoints (time events).
  Real H(start = 0, fixed = true);
equation
  der(H) = h;
end TimeTables;
