model RedeclareClass
  partial model Source
    parameter Real k = 1;
    output Real y;
  end Source;
  model Const
    extends Source;
  equation
    y = k;
  end Const;
  model Ramp
    extends Source;
    parameter Real slope = 2;
  equation
    y = slope * time;
  end Ramp;
  package Water
    constant Real density = 1000;
  end Water;
  package Oil
    constant Real density = 800;
  end Oil;
  model Pipe
    replaceable package Medium = Water;
    Real d = Medium.density;
  end Pipe;
  model Plant
    replaceable package Medium = Water;
    Pipe pipe(redeclare package Medium = Medium);
    replaceable model S = Const constrainedby Source;
    S s;
  end Plant;
  Plant a(redeclare package Medium = Oil, redeclare model S = Ramp(slope = 3));
  Plant b;
end RedeclareClass;
