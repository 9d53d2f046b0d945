// 13.4.3: a non-top-level entity shall begin with a within-clause (run: --lib ch13/13_4_3_missing_within/LibA)
model MissingWithin
  LibA.B b;
end MissingWithin;
