// 2.2: delimited comments do not nest
model NestedComment
  Real x = 1;
  /* outer /* inner */ rest */
end NestedComment;
