// 6.4: compatibility: if B is replaceable, every public element of B needs a plug-compatible same-named element in A
model MB
  Real x = 1;
end MB;

model MA
  Real z = 1;
end MA;

model Top
  replaceable MB m;
end Top;

model MissingElement
  Top t(redeclare MA m);
end MissingElement;
