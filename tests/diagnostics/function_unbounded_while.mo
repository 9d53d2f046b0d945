model FunctionUnboundedWhile
  function halvings
    input Real u;
    output Integer n = 0;
  protected
    Real v = u;
  algorithm
    while v > 1 loop
      v := v / 2;
      n := n + 1;
    end while;
  end halvings;
  Real x(start = 1, fixed = true);
  Integer k;
equation
  der(x) = 1;
  k = halvings(x);
end FunctionUnboundedWhile;
