// 3.7.1: String(x) first argument must be a scalar (Boolean, Integer, Real or enumeration)
model StringOfArray
  parameter String s = String({1, 2});
end StringOfArray;
