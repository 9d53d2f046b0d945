// 5.3.2: a component may not be named like the first part of its type name (P.Q P;)
package P
  model Q
    Real x = 1;
  end Q;
end P;

model ComponentHidesPackage
  P.Q P;
end ComponentHidesPackage;
