// 2.2: white-space and comments cannot occur inside a token (e.g. < = for <=)
model SpaceInsideToken
  Real x = time;
  Boolean b = x < = 1;
end SpaceInsideToken;
