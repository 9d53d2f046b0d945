model Buses
  connector RealInput = input Real;
  connector RealOutput = output Real;
  connector BooleanOutput = output Boolean;
  connector BooleanInput = input Boolean;
  expandable connector Bus
    Real spare "declared, never connected";
    SubBus sub;
  end Bus;
  expandable connector SubBus
  end SubBus;
  model Plant
    Bus bus;
    RealOutput v = 2 * time "a sensor signal";
    RealInput actuator;
    BooleanOutput flag = time > 0.5;
  equation
    connect(v, bus.speed);
    connect(actuator, bus.cmd);
    connect(flag, bus.sub.flag);
  end Plant;
  model Controller
    Bus bus;
    RealInput u;
    RealOutput cmd = -0.5 * u;
    BooleanInput f;
    Real flagged = if f then 10 else 0;
  equation
    connect(u, bus.speed);
    connect(cmd, bus.cmd);
    connect(f, bus.sub.flag);
  end Controller;
  Plant plant;
  Controller ctrl;
  Bus bus;
equation
  connect(plant.bus, bus);
  connect(ctrl.bus, bus);
end Buses;
