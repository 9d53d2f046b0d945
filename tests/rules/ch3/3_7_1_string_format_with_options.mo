// 3.7.1: String: format cannot be combined with the other named arguments
model StringFormatWithOptions
  parameter Real p = 1.5;
  parameter String s = String(p, format = "g", minimumLength = 3);
end StringFormatWithOptions;
