// 4.6: each public connector component of a block must have input or output on all its connector variables
connector Pin
  Real v;
  flow Real i;
end Pin;
block BlockAcausalConnector
  Pin p;
equation
  p.v = 0;
end BlockAcausalConnector;
