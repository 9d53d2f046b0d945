// 3.7.2: div/mod/rem arguments shall have type Real or Integer
model DivOfBoolean
  parameter Boolean b = true;
  Integer k = div(b, 2);
end DivOfBoolean;
