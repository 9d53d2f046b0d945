// 12.9.1.3: record types can only be mapped (passed or returned) for external C functions, not FORTRAN 77
record R
  Real v;
end R;
pure function F
  input R r;
  output Real y;
external "FORTRAN 77" y = e(r);
end F;
model ExternalRecordFortran
  Real x;
equation
  x = F(R(time));
end ExternalRecordFortran;
