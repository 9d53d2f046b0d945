// 13.4.1: a directory shall contain the node package.mo (run: --lib ch13/13_4_1_no_package_mo/LibA)
model NoPackageMo
  LibA.B b;
end NoPackageMo;
