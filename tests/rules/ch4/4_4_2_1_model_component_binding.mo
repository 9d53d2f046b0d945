// 4.4.2.1: only components of type, record, operator record, connector (or ExternalObject) may have declaration equations
model Empty
end Empty;
model ModelComponentBinding
  Empty a;
  Empty b = a;
end ModelComponentBinding;
