// 8.3.8: terminate takes a String argument
model TerminateNotString
equation
  when time > 1 then
    terminate(1);
  end when;
end TerminateNotString;
