// 9.1.3: an expandable connector shall not contain a component declared with flow
expandable connector BusF
  flow Real i;
end BusF;
model ExpandableFlowComponent
  BusF b;
end ExpandableFlowComponent;
