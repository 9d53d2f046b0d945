// Specification 12.6 and 10.1: arrays of records as values: an array constructor of record
// constructors, a parameter array of records bound to one, record array components read as a
// value (`total(q)`) and field by field (`tab.x`), records arrays as function inputs (`:`
// size) and outputs (assigned element by element and field by field), an equation between
// arrays of records, and an element selected with a subscript known only at run time.
// At t = 1, v = 2: total(tab) = 1·2 + 3·4 = 14; total({P(v, 1), P(1)}) = 2 + 2 = 4;
// total(q) + sum(tab.x) = 1·2 + 1·2 + 4 = 8; make(v) = {Q(2, 1), Q(4, 3)};
// pickX(tab, k) with k = 2 at t = 1 is 3. A record with an array-of-records field bound to a
// record value (the MSL's battery cell data): st.x = {6, 8} from c2's rcData; a comprehension
// choosing records: sa = sel2[2].a = 2. An array of components bound element by element
// from an array of records: cs[2].x = tab[2].x = 3.
// run: method=fe step=0.25 stop=1
// expect: t1 16
// expect: t2 4
// expect: t3 8
// expect: m[1].a 2
// expect: m[2].a 4
// expect: m[2].b 3
// expect: sel 3
// expect: n 2
// expect: st.x[2] 8
// expect: sa 2
// expect: cs[2].x 3
model RecordArrays
  record P
    Real x;
    Real y = 2;
  end P;
  record Q
    Real a;
    Real b;
  end Q;
  function total
    input P ps[:];
    output Real s = 0;
  algorithm
    for k in 1:size(ps, 1) loop
      s := s + ps[k].x * ps[k].y;
    end for;
  end total;
  function make
    input Real u;
    output Q qs[2];
  algorithm
    qs[1] := Q(a = u, b = 1);
    qs[2].a := 2 * u;
    qs[2].b := 3;
  end make;
  function pickX
    input P ps[:];
    input Integer k;
    output Real x;
  algorithm
    x := ps[k].x;
  end pickX;
  record Cell
    parameter Integer nRC = 1;
    parameter P rcData[nRC] = {P(x = 0, y = 0)};
  end Cell;
  record Example
    extends Cell(nRC = 2, rcData = {P(x = 2, y = 3), P(x = 4, y = 5)});
  end Example;
  model Stack
    parameter Cell cellData;
    Real x[cellData.nRC] = cellData.rcData.x;
  end Stack;
  parameter Example c2(nRC = 2, rcData = {P(x = 6, y = 7), P(x = 8, y = 9)});
  Stack st(cellData = c2);
  model Holder
    parameter P p;
    Real x = p.x;
  end Holder;
  Holder cs[2](p = tab);
  parameter Q sel2[2] = {if k == 1 then Q(a = k, b = 1) else Q(a = k, b = 0) for k in 1:2};
  Real sa = sel2[2].a;
  parameter P tab[2] = {P(x = 1, y = 2), P(x = 3, y = 4)};
  P q[2](each x = 1);
  Real v(start = 1, fixed = true);
  Real t1;
  Real t2;
  Real t3;
  Q m[2];
  Integer k = if time > 0.5 then 2 else 1;
  Real sel;
  Integer n = size(tab, 1);
equation
  der(v) = 1;
  t1 = total(tab) + v;
  t2 = total({P(x = v, y = 1), P(x = 1)});
  t3 = total(q) + sum(tab.x);
  m = make(v);
  sel = pickX(tab, k);
end RecordArrays;
