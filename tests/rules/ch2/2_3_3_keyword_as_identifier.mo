// 2.3.3: keywords cannot be used where an IDENT is expected (e.g. as a component name)
model KeywordAsIdentifier
  Real loop = 1;
end KeywordAsIdentifier;
