package Rtc "Component library of the rtc real-time Modelica-subset compiler"
  // Sub-packages are stored as separate files in this directory (see package.order):
  //   Constants   mathematical and physical constants
  //   SI          physical types with units (names as in Modelica.Units.SI)
  //   Blocks      signal connectors and input/output blocks (names as in Modelica.Blocks)
  //   Electrical  analog electrical components (names as in Modelica.Electrical.Analog)
  //   Mechanics   1-D translational and rotational mechanics (names as in Modelica.Mechanics)
  //
  // The library stays inside the language subset accepted by rtc: no when-equations,
  // no algorithm sections, no user functions, no inner/outer, no stream connectors.
end Rtc;
