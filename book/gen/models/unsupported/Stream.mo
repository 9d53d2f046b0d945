model Stream
  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end FluidPort;
  FluidPort port;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end Stream;
