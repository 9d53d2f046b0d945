// 2.3.1: a backslash in a quoted identifier must start one of the listed escapes (S-ESCAPE)
model QuotedIdentifierBadEscape
  Real 'a\qb' = 1;
end QuotedIdentifierBadEscape;
