// 7.2.5: with each, the modifier value must fit one array element (Real x[2](each start = {1, 2}) is illegal)
model EachWithArrayValue
  Real x[2](each start = {1, 2}) = {1, 2};
end EachWithArrayValue;
