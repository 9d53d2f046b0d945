// The predefined enumerations (specification 4.9.5 StateSelect, 8.3.7 AssertionLevel) and
// `Init`, the MSL blocks' initialisation choice, usable without a declaration: a parameter
// of type Init selects the initial equation (steady state: x starts at u and stays there),
// Integer() of a literal, a warning-level assertion that fails from the start and does not
// stop the run, and a local `Init` that hides the built-in one.
// run: method=be step=0.25 stop=1
// expect: x 3
// expect: n 4
// expect: hidden.m 2
model PredefinedEnumerations
  model Hidden
    type Init = enumeration(first, second);
    Integer m = Integer(Init.second);
  end Hidden;
  Hidden hidden;
  parameter Init initType = Init.SteadyState;
  parameter Real u = 3;
  Real x(start = 0, stateSelect = StateSelect.prefer);
  Integer n = Integer(Init.InitialOutput);
initial equation
  if initType == Init.SteadyState then
    der(x) = 0;
  elseif initType == Init.InitialState then
    x = 1;
  end if;
equation
  der(x) = u - x;
  assert(x < 2, "x above 2", AssertionLevel.warning);
end PredefinedEnumerations;
