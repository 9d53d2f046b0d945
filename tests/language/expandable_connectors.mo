// Specification 9.1.3: expandable connectors as buses. `speed` is not declared in the bus: the
// connection from the sensor adds it; `spare` is declared but never connected, so it is not
// made; two buses connected (the controller's and the plant's through the top-level one) hold
// the union of their elements, so the controller reads `speed` that only the plant writes; a
// sub-bus is connected through the main bus; input and output prefixes of the signals do not
// make the top-level bus's elements inputs. At t = 1: speed = 2·t = 2, cmd = -0.5·speed = -1,
// the sub-bus carries flag = true (time > 0.5), flagged = 10. Arrays of components with
// buses connect element by element to an array of buses (ps[k].bus to buses[k]), and a reader
// of each bus sees its element: rs[2].u = ps[2].v = 2·2·time = 4.
// run: method=fe step=0.25 stop=1
// expect: ctrl.u 2
// expect: bus.speed 2
// expect: ctrl.cmd -1
// expect: plant.actuator -1
// expect: ctrl.flagged 10
// expect: rs[2].u 4
model ExpandableConnectors
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
  model Writer
    parameter Real k = 1;
    Bus bus;
    RealOutput v = 2 * k * time;
  equation
    connect(v, bus.w);
  end Writer;
  model Reader
    Bus bus;
    RealInput u;
  equation
    connect(u, bus.w);
  end Reader;
  Plant plant;
  Controller ctrl;
  Bus bus;
  Writer ps[2](k = {1, 2});
  Reader rs[2];
  Bus buses[2];
equation
  connect(ps.bus, buses);
  connect(rs.bus, buses);
  connect(plant.bus, bus);
  connect(ctrl.bus, bus);
end ExpandableConnectors;
