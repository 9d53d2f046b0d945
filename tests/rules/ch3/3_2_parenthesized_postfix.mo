// 3.2: postfix index/access only apply to a component-reference, not to a parenthesized expression
record R
  Real x[2];
end R;
model ParenthesizedPostfix
  R a[3](each x = {1, 2});
  Real y[2] = (a[3]).x;
end ParenthesizedPostfix;
