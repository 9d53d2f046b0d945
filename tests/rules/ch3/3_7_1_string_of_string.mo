// 3.7.1: String(x) first argument must be a non-String expression
model StringOfString
  parameter String s = String("a");
end StringOfString;
