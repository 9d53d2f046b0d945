within;
package Other
  model B
    Real x = 1;
  end B;
end Other;
