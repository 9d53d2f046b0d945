// A function redeclared with a modification in an instance and called through it: the
// modification (read in the redeclaring scope) is not carried yet, so the call is refused
// rather than computed with the new function's defaults (the MSL's UserDefinedGravityField).
model FunctionViaInstanceRedeclaredModified
  function scaled
    input Real r;
    input Real k = 1;
    output Real a;
  algorithm
    a := -k * r;
  end scaled;
  model World
    replaceable function accel
      input Real r;
      output Real a;
    algorithm
      a := -r;
    end accel;
  end World;
  parameter Real k = 2;
  World world(redeclare function accel = scaled(k = k));
  Real x(start = 1, fixed = true);
equation
  der(x) = world.accel(x);
end FunctionViaInstanceRedeclaredModified;
