within LibA;
package B
  constant Real x = 2;
end B;
