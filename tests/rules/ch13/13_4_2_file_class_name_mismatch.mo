// 13.4.2: a file A.mo shall define a class named A (B.mo defines C) (run: --lib ch13/13_4_2_file_class_name_mismatch/LibA)
model FileClassNameMismatch
  LibA.C c;
end FileClassNameMismatch;
