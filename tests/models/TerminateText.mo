// `terminate` with a String parameter (specification 8.3.8: its argument is a String
// expression; the MSL's TerminateSimulation block writes `terminate(terminationText)`): the
// text is known when the model is compiled (tests/it/cli.rs, terminate_and_when_cycle).
model TerminateText
  parameter String why = "x reached 0.5";
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when x > 0.5 then
    terminate(why);
  end when;
end TerminateText;
