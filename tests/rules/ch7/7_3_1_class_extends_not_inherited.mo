// 7.3.1: redeclare class extends B requires that B is inherited from a base class
model A
  replaceable model C
    Real y = 0;
  end C;
end A;

model ClassExtendsNotInherited
  extends A;
  redeclare model extends B
    Real x = 1;
  end B;
  B b;
end ClassExtendsNotInherited;
