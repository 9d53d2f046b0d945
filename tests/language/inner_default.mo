// Specification 5.4: an outer component without an inner above it is an error, unless its
// class has a `missingInnerMessage` annotation: then the tool may add the inner itself (with
// its default modifications) to the simulated model, and warn with the message. Both bodies
// read the one default environment (g = 9.81, no inner declared), so v(1) = 9.81 for each.
// run: method=be step=0.25 stop=1
// expect: a.v 9.81
// expect: b.v 9.81
model InnerDefault
  model Environment
    parameter Real g = 9.81;
    annotation(defaultComponentName = "env", defaultComponentPrefixes = "inner",
      missingInnerMessage = "No \"env\" component is defined: a default environment is used.");
  end Environment;
  model Body
    outer Environment env;
    Real v(start = 0, fixed = true);
  equation
    der(v) = env.g;
  end Body;
  Body a;
  Body b;
end InnerDefault;
