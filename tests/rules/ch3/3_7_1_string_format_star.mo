// 3.7.1: String format shall not use * for width or precision
model StringFormatStar
  parameter Real p = 1.5;
  parameter String s = String(p, format = "*.3f");
end StringFormatStar;
