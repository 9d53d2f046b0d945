// 10.6.2: String + requires String operands on both sides
model StringPlusNumber
  parameter String s = "a" + 1;
end StringPlusNumber;
