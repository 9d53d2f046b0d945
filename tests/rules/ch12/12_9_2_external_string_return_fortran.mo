// 12.9.2: a String cannot be returned from a FORTRAN 77 external function
pure function F
  input Real u;
  output String s;
external "FORTRAN 77" s = e(u);
end F;
model ExternalStringReturnFortran
  parameter String s = F(1.0);
end ExternalStringReturnFortran;
