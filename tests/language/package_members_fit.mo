// Specification 6.4: a package standing for its constraining package has its member classes,
// each fitting the constraining one: a replaceable member may be replaced by a
// non-replaceable one with more elements (PA.G), a transitively non-replaceable member by
// another long definition with the same public components (PA.H), and a member inherited
// from the constraining package (PC's H) is that class. (The invalid cases are
// tests/rules/ch6/6_4_replaceable_vs_non_replaceable.mo, 6_4_not_transitively_non_replaceable.mo,
// 6_4_non_replaceable_extra_element.mo, 6_4_non_replaceable_visibility.mo and
// 6_4_long_class_replaced_by_short.mo.)
// At t = 1: g.y = 2·1, h.z = 3 + 1, q.z = 1 (PB's c).
// run: method=be step=0.5 stop=1
// expect: g.y 2
// expect: h.z 4
// expect: q.z 1
model PackageMembersFit
  package PB
    replaceable model G
      Real y = time;
    end G;
    model H
      parameter Real c = 1;
      Real z = c;
    end H;
  end PB;
  package PA
    model G
      Real y = 2*time;
      Real w = 1;
    end G;
    model H
      parameter Real c = 3;
      Real z = c + time;
    end H;
  end PA;
  package PC
    extends PB;
  end PC;
  replaceable package P = PA constrainedby PB;
  replaceable package Q = PC constrainedby PB;
  P.G g;
  P.H h;
  Q.H q;
end PackageMembersFit;
