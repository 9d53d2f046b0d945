// 2.3.2: a component reference must denote a component (not a class)
package P
  constant Real c = 1;
end P;
model ComponentReferenceToClass
  Real y = P;
end ComponentReferenceToClass;
