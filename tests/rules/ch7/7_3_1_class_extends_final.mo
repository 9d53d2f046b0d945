// 7.3.1: redeclare class extends B has the restrictions of a redeclare of B (B final: not allowed)
model A
  final replaceable model B
    Real y = 0;
  end B;
end A;

model ClassExtendsFinal
  extends A;
  redeclare model extends B
    Real x = 1;
  end B;
  B b;
end ClassExtendsFinal;
