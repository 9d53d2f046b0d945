// 13.4.2: a .mo file defining more than one class is an error when loaded from the library path (run: --lib ch13/13_4_2_file_two_classes/LibA)
model FileTwoClasses
  LibA.B b;
end FileTwoClasses;
