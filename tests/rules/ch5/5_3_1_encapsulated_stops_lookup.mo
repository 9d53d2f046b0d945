// 5.3.1: simple-name lookup stops at an encapsulated class (enclosing names not visible)
model EncapsulatedStopsLookup
  constant Real k = 1;
  encapsulated model Inner
    Real y = k;
  end Inner;
  Inner i;
end EncapsulatedStopsLookup;
