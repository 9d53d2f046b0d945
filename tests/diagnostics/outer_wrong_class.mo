model OuterWrongClass
  model Environment
    parameter Real g = 9.81;
  end Environment;
  model Other
    parameter Real g = 1;
  end Other;
  model Body
    outer Environment env;
    Real v(start = 0, fixed = true);
  equation
    der(v) = env.g;
  end Body;
  inner Other env;
  Body b;
end OuterWrongClass;
