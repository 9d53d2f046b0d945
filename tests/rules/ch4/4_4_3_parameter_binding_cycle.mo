// 4.4.3: binding equations of parameters and constants must be acyclic (p = 2*q, q = sin(p))
model ParameterBindingCycle
  parameter Real p = 2 * q;
  parameter Real q = sin(p);
end ParameterBindingCycle;
