within;
package LibBase
  constant Real k = 1;
end LibBase;
