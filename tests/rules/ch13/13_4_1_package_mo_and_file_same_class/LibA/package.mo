within;
package LibA
  model B
    Real x = 2;
  end B;
end LibA;
