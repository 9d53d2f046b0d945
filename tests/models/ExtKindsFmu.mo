model ExtKindsFmu "ExtKinds.Example (tests/clib/ExtKinds) in a file of its own, for the FMU test: a random generator's state, a weighted sum and a stored offset computed by the library's C code"
  extends ExtKinds.Example;
end ExtKindsFmu;
