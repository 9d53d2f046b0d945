// 2.1: identifiers are restricted to 7-bit ASCII characters (no non-ASCII letters)
model NonAsciiIdentifier
  Real xé = 1;
end NonAsciiIdentifier;
