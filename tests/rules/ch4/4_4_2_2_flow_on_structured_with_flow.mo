// 4.4.2.2: when flow is applied to a structured component, no element may have flow (or stream)
connector Pin
  Real v;
  flow Real i;
end Pin;
connector Bus
  flow Pin p;
end Bus;
model FlowOnStructuredWithFlow
  Bus b;
equation
  b.p.v = 1;
end FlowOnStructuredWithFlow;
