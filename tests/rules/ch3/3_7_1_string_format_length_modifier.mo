// 3.7.1: String format shall not contain a length modifier
model StringFormatLengthModifier
  parameter Integer i = 3;
  parameter String s = String(i, format = "ld");
end StringFormatLengthModifier;
