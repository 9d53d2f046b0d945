// 13.2: inside an encapsulated class, definitions of another package can only be referred to via import
package P
  constant Real c = 1;
end P;
encapsulated model EncapsulatedWithoutImport
  Real x = P.c;
end EncapsulatedWithoutImport;
