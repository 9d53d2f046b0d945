model TableFromFile
  class Table1D
    extends ExternalObject;
    function constructor
      input String tableName;
      input String fileName;
      input Real table[:, :];
      input Integer columns[:];
      output Table1D t;
      external "C" t = ModelicaStandardTables_CombiTable1D_init3(fileName, tableName, table, size(table, 1), size(table, 2), columns, size(columns, 1));
    end constructor;
  end Table1D;
  pure function value1D
    input Table1D t;
    input Integer icol;
    input Real u;
    output Real y;
    external "C" y = ModelicaStandardTables_CombiTable1D_getValue(t, icol, u);
  end value1D;
  parameter Table1D t = Table1D("tab1", "data.txt", fill(0, 0, 2), {2});
  Real y = value1D(t, 1, time);
end TableFromFile;
