// 4.4.4: Integer/Boolean/String/enumeration variables cannot be continuous-time (b = noEvent(...) is an error)
model ContinuousBoolean
  Boolean b;
equation
  b = noEvent(time > 0.5);
end ContinuousBoolean;
