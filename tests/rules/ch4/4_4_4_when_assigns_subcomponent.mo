// 4.4.4: a variable assigned in a when-clause shall not be defined in a sub-component of model or block class
connector RealInput = input Real;
model Sub
  RealInput u;
  Real y = 2 * u;
end Sub;
model WhenAssignsSubcomponent
  Sub s;
equation
  when sample(0, 1) then
    s.u = 1;
  end when;
end WhenAssignsSubcomponent;
