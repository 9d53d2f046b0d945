model UnsupportedAlgorithm
  Real x;
algorithm
  x := 1;
end UnsupportedAlgorithm;
