within Rtc;
package Constants "Mathematical and physical constants (as in Modelica.Constants)"
  constant Real pi = 3.14159265358979323846 "Ratio of a circle's circumference to its diameter";
  constant Real e = 2.71828182845904523536 "Euler's number, base of the natural logarithm";
  constant Real g_n(unit = "m/s2") = 9.80665 "Standard acceleration of gravity on earth";
end Constants;
