// An external object whose C functions no library defines (no Library annotation, nothing
// loaded): a located error, not a crash. The symbols are this file's own: the shim registry is
// per process, and a symbol another test registered first would lend this one its location.
model TableFromFile
  class Table1D
    extends ExternalObject;
    function constructor
      input String tableName;
      input String fileName;
      input Real table[:, :];
      input Integer columns[:];
      output Table1D t;
      external "C" t = TableFromFile_init(fileName, tableName, table, size(table, 1), size(table, 2), columns, size(columns, 1));
    end constructor;
  end Table1D;
  pure function value1D
    input Table1D t;
    input Integer icol;
    input Real u;
    output Real y;
    external "C" y = TableFromFile_value(t, icol, u);
  end value1D;
  parameter Table1D t = Table1D("tab1", "data.txt", fill(0, 0, 2), {2});
  Real y = value1D(t, 1, time);
end TableFromFile;
