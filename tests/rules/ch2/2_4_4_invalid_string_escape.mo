// 2.4.4: a backslash in a string literal must start one of the listed escape sequences
model InvalidStringEscape
  parameter String s = "a\qb";
end InvalidStringEscape;
