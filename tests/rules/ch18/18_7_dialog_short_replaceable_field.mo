// 18.7: on a short replaceable class definition only the Dialog fields tab, group, enable and groupImage are allowed
model Sub
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end Sub;
model DialogShortReplaceableField
  replaceable model R = Sub annotation(Dialog(colorSelector = true));
  R r;
end DialogShortReplaceableField;
