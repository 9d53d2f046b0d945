// 4.6: it is not legal to extend from any enclosing scope of an operator record
package A
  operator record B
    Real re;
  end B;
end A;
package A2
  extends A;
end A2;
model ExtendsEnclosingOfOperatorRecord
  A2.B b(re = 1);
end ExtendsEnclosingOfOperatorRecord;
