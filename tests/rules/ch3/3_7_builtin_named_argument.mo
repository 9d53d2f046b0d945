// 3.7: built-in operators of 3.7 (except String) can only be called with positional arguments
model BuiltinNamedArgument
  Real x = time;
  Real y = abs(v = x);
end BuiltinNamedArgument;
