// Specification 3.7.4.6: getInstanceName() is the name of the instance the call is written
// in, from the simulated model's name down (the MSL's noise blocks hash it into their seeds).
// run: method=be step=0.5 stop=1
// expect: top 1
// expect: nested 1
model GetInstanceName
  model Sub
    parameter String me = getInstanceName();
    Real ok = if me == "GetInstanceName.s.t" then 1 else 0;
  end Sub;
  model Holder
    Sub t;
  end Holder;
  Holder s;
  parameter String here = getInstanceName();
  Real top = if here == "GetInstanceName" then 1 else 0;
  Real nested = s.t.ok;
end GetInstanceName;
