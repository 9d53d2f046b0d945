// 11.2.3: the condition of a while-statement shall be a scalar Boolean expression
model WhileNotBoolean
  Integer n;
algorithm
  n := 3;
  while n loop
    n := n - 1;
  end while;
end WhileNotBoolean;
