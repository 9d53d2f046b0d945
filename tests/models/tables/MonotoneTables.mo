// Monotone spline tables (the MSL's table interface, as in SplineTables.mo): Fritsch and
// Butland's (MonotoneContinuousDerivative1) and Steffen's (MonotoneContinuousDerivative2)
// slopes, over points with a flat stretch and a change of direction, looked up along
// u = time - 1 from -1 to 7 (both ends extrapolated: LastTwoPoints continues with the end
// slope). tests/it/tables.rs compares them with tests/refdata/monotone.py.
model MonotoneTables
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
  parameter Real tab[6, 2] = [0, 0; 1, 1; 2, 1; 3, 1.5; 4.5, 3; 6, 2];
  parameter Table1D fb = Table1D("NoName", "NoName", tab, {2}, Smoothness.MonotoneContinuousDerivative1);
  parameter Table1D st = Table1D("NoName", "NoName", tab, {2}, Smoothness.MonotoneContinuousDerivative2);
  Real u = time - 1;
  Real f = value1D(fb, 1, u);
  Real s = value1D(st, 1, u);
end MonotoneTables;
