model PartialComponent
  Rtc.Electrical.OnePort p;
end PartialComponent;
