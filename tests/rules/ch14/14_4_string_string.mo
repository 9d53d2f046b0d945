// 14.4: String(x) where x is a String (not an operator record nor Boolean/Integer/Real/enumeration) is erroneous
model StringString
  parameter String s = String("a");
end StringString;
