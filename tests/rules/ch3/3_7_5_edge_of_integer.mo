// 3.7.5: edge(b) requires a Boolean variable b
model EdgeOfInteger
  Integer i = if time > 0.5 then 1 else 0;
  Boolean b = time > 0.5;
  Boolean e = edge(i);
end EdgeOfInteger;
