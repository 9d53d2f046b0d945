// 13.4.2: a library file LibA.mo shall define the single class LibA (run: --lib ch13/13_4_2_toplevel_file_name_mismatch/LibA.mo)
model ToplevelFileNameMismatch
  Other.B b;
end ToplevelFileNameMismatch;
