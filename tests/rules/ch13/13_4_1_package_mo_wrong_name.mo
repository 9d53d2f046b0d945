// 13.4.1: package.mo shall define a class whose name matches the directory (run: --lib ch13/13_4_1_package_mo_wrong_name/LibA)
model PackageMoWrongName
  LibA.B b;
end PackageMoWrongName;
