// 4.4.2.1: a declaration equation must not have higher variability than the component
model BindingHigherVariability
  parameter Real p = time;
end BindingHigherVariability;
