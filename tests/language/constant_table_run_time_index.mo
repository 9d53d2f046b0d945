// A constant table (a package constant) indexed by discrete values known only at run time
// (10.5), as the MSL's logic tables `OrTable[a, b]`: a selection among its elements. Here the
// index pair changes when x passes 0.5: (1, 2) -> (2, 2).
// run: method=be step=0.125 stop=1
// expect: v 40
model ConstantTableRunTimeIndex
  package Tables
    constant Integer T[2, 2] = [10, 20; 30, 40];
  end Tables;
  Real x(start = 0, fixed = true);
  Integer i(start = 1);
  Integer v;
equation
  der(x) = 1;
  when x > 0.5 then
    i = 2;
  end when;
  v = Tables.T[i, 2];
end ConstantTableRunTimeIndex;
