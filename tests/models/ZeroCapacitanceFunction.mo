model ZeroCapacitanceFunction "a node whose capacitance a function computes, zero at the parameters (a MOSFET card without oxide thickness)"
  function capacitance "voltage-dependent capacitance: cox times a shape"
    input Real cox "oxide capacitance factor";
    input Real v "voltage";
    output Real c;
  protected
    Real shape;
  algorithm
    shape := if v > 0 then 1 + v^2 else 1/(1 - v);
    c := cox*shape;
  end capacitance;
  parameter Real cox = 0 "no oxide thickness given: no capacitance";
  parameter Real G = 1e-3 "conductance to the source";
  parameter Real Gl = 1e-3 "conductance to ground";
  Real u = sin(10*time) "source";
  Real v(start = 0) "node voltage";
  Real c "node capacitance";
  Real ic "capacitor current";
equation
  c = capacitance(cox, v);
  ic = c*der(v);
  ic + Gl*v = G*(u - v);
  annotation(experiment(StopTime = 1));
end ZeroCapacitanceFunction;
