// 13.4: each Modelica file is stored in UTF-8 (here a Latin-1 byte in a description string)
model NotUtf8
  Real x = 1 "café";
end NotUtf8;
