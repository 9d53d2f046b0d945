model UnknownClass
  Rtc.Electrical.Resistr r(R = 1);
end UnknownClass;
