// 16.6: a clocked when-clause cannot have an elsewhen part
model ClockedWhenElsewhen
  Real x(start = 0);
equation
  when Clock(0.1) then
    x = previous(x) + 1;
  elsewhen Clock(0.2) then
    x = previous(x) + 2;
  end when;
end ClockedWhenElsewhen;
