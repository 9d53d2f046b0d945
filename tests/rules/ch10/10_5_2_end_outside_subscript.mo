// 10.5.2: end may only appear inside array subscripts
model EndOutsideSubscript
  Integer k = end;
end EndOutsideSubscript;
