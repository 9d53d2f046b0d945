// 2.3.1: control characters in quoted identifiers must be written as string escapes
model QuotedIdentifierControlChar
  Real 'a	b' = 1;
end QuotedIdentifierControlChar;
