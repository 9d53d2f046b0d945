model TwoTanks "tank 1 drains into tank 2, which drains too (Torricelli)"
  parameter Real A = 1 "ground area of each tank";
  parameter Real a = 0.2 "area of each drain hole";
  constant Real g = 9.80665;
  Real level1(start = 1, fixed = true);
  Real level2(start = 0.5, fixed = true);
  Real flow12 "from tank 1 to tank 2";
  Real out2 "out of tank 2";
equation
  der(level1) = -flow12/A;
  der(level2) = (flow12 - out2)/A;
  flow12 = sqrt(max(0, 2*g*level1))*a;
  out2 = sqrt(max(0, 2*g*level2))*a;
  annotation(experiment(StopTime = 6));
end TwoTanks;
