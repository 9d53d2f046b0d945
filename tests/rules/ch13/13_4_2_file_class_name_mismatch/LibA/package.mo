within;
package LibA
end LibA;
