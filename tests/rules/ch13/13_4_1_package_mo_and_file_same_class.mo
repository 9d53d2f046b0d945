// 13.4.1: a class stored in package.mo and a sub-entity file must not define the same name (run: --lib ch13/13_4_1_package_mo_and_file_same_class/LibA)
model PackageMoAndFileSameClass
  LibA.B b;
end PackageMoAndFileSameClass;
