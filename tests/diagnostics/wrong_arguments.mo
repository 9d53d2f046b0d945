model WrongArguments
  Real x;
equation
  x = atan2(1.0);
end WrongArguments;
