// 13.4.3: the class named by within must not be defined by a short class definition (run: --lib ch13/13_4_3_within_short_class/LibBase --lib ch13/13_4_3_within_short_class/LibA)
model WithinShortClass
  LibA.B b;
end WithinShortClass;
