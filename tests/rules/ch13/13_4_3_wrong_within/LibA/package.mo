within;
package LibA
  package Sub
  end Sub;
end LibA;
