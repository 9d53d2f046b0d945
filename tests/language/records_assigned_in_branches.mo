// Records assigned in a branch of an `if` whose condition is known only at run time
// (specification 11.2.6, 12.2): the record keeps the other branch's value where the branch is
// not taken, field by field, including fields inherited from a base record, Integer fields and
// nested records. The MSL's Spice3 MOSFET (`mosCalcNoBypassCode`) takes its drain current this
// way: `if mode == 1 then c := drainCur(vds, c) else c := drainCur(-vds, c) end if`; before
// the fix the record always took the last branch's value, so the current had the wrong sign
// in normal mode.
// At the stop time v = 3: `pos` takes the first branch (mode 1, current min(3, 2) * 2 = 4),
// `neg` the second (v = -3: mode -1, current of 3, 4, times the mode: -4); `lin` is below the
// limit in the first branch (v = 1.5: 1.5 * 2 = 3); `nested` assigns a nested record in one
// branch only and reads it after (7 when the branch runs, 5 when not).
// run: method=be step=0.25 stop=1
// expect: pos 4
// expect: neg -4
// expect: lin 3
// expect: nestedTaken 7
// expect: nestedNot 5
model RecordsAssignedInBranches
  record Base
    Integer mode(start = 1);
    Real current(start = 0);
  end Base;
  record Calc
    extends Base;
    Real beta(start = 2);
  end Calc;
  record Inner
    Real a;
  end Inner;
  record Outer
    Inner in1;
    Real b;
  end Outer;
  function drain "the current of a saturating conductance, like drainCur"
    input Real vds;
    input Calc inC;
    output Calc outC;
  algorithm
    outC := inC;
    if vds >= 2 then
      outC.current := outC.beta * 2;
    else
      outC.current := outC.beta * vds;
    end if;
  end drain;
  function current "the device current in either mode, like mosCalcNoBypassCode"
    input Real v;
    input Calc inC;
    output Real i;
  protected
    Calc c;
  algorithm
    c := inC;
    c.mode := if v >= 0 then 1 else -1;
    if c.mode == 1 then
      c := drain(v, c);
    else
      c := drain(-v, c);
    end if;
    i := c.current * c.mode;
  end current;
  function nested
    input Real v;
    output Real y;
  protected
    Outer o;
  algorithm
    o := Outer(Inner(5), 1);
    if v > 0 then
      o.in1 := Inner(7);
    end if;
    y := o.in1.a;
  end nested;
  parameter Calc c0(mode = 1, current = 0, beta = 2);
  Real v = 4 * time - 1;
  Real pos = current(v, c0);
  Real neg = current(-v, c0);
  Real lin = current(v / 2, c0);
  Real nestedTaken = nested(v);
  Real nestedNot = nested(-v);
end RecordsAssignedInBranches;
