// 3.8: binding v = expr: v must be declared at least as variable as expr (e.g. constant bound to parameter)
model BindingVariability
  parameter Real p = 1;
  constant Real c = p + 2;
end BindingVariability;
