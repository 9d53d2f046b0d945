// External objects (specification 12.9.7) for the MSL's table interface: a class that
// `extends ExternalObject` with a constructor calling ModelicaStandardTables_CombiTable1D_init3
// (or _CombiTimeTable_init3), and lookups calling ..._getValue. rtc provides these C functions
// itself as expressions over the table rows (written here the way a library declares them).
// u = time: at t = 2.5 the linear table gives 4 + (9 - 4)*0.5 = 6.5, held extrapolation past 4
// is 16 (at t = 2.5, u + 3 = 5.5 > 4), last-two-points extrapolation below 0 is 0 + (1 - 0)*(-1)
// = -1 (u - 3.5), constant segments give the value of the row below (4 at u = 2.5); the time
// table starts at 1 s and is shifted by 1 s: at t = 2.5 it reads row time 1.5 → 1 + (3 - 1)*0.5
// = 2; the largest abscissa is 4.
// run: method=be step=0.25 stop=2.5
// expect: lin 6.5
// expect: held 16
// expect: below -1
// expect: step 4
// expect: timed 2
// expect: um 4
model ExternalTables
  type Smoothness = enumeration(LinearSegments, ContinuousDerivative, ConstantSegments);
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
  parameter Real tab[5, 2] = [0, 0; 1, 1; 2, 4; 3, 9; 4, 16];
  parameter Table1D linear = Table1D("NoName", "NoName", tab, {2}, Smoothness.LinearSegments);
  parameter Table1D hold = Table1D("NoName", "NoName", tab, {2}, Smoothness.LinearSegments, Extrapolation.HoldLastPoint);
  parameter Table1D steps = Table1D("NoName", "NoName", tab, {2}, Smoothness.ConstantSegments);
  parameter TimeTable tt = TimeTable("NoName", "NoName", [0, 0; 1, 1; 2, 3], 1, {2}, Smoothness.LinearSegments, Extrapolation.LastTwoPoints, shiftTime = 1);
  parameter Real umax = maxAbscissa(linear);
  Real lin, held, below, step, timed;
  Real um = umax + 0 * time;
equation
  lin = value1D(linear, 1, time);
  held = value1D(hold, 1, time + 3);
  below = value1D(linear, 1, time - 3.5);
  step = value1D(steps, 1, time);
  timed = valueTime(tt, 1, time);
end ExternalTables;
