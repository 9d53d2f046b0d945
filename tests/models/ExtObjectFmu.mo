model ExtObjectFmu "ExtKinds.Object (tests/clib/ExtKinds) in a file of its own, for the FMU test: an external object (a polynomial the library holds) made at instantiation, called in every step, destroyed when the instance is freed"
  extends ExtKinds.Object;
end ExtObjectFmu;
