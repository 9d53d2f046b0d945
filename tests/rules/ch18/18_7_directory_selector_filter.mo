// 18.7: the filter of a directorySelector may not be used
model DirectorySelectorFilter
  parameter String dir = "." annotation(Dialog(directorySelector(filter = "*.txt", caption = "Directory")));
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end DirectorySelectorFilter;
