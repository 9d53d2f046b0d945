// 4.4.2.2: type prefixes (parameter, input, flow, ...) only for type, record, operator record and connector components
model Sub
  parameter Real p = 1;
end Sub;
model PrefixOnModelComponent
  parameter Sub s;
end PrefixOnModelComponent;
